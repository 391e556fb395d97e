import type { Knex } from "@medusajs/framework/mikro-orm/knex"
import { NotificationInbox, type NotificationRow } from "./notification-inbox"
import { dedupeKey, hasNulCharacter, webhookSchema, zodMessage } from "./notification-shape"
import { PaymentStore } from "./payment-store"

export type WebhookIntake =
  | { kind: "invalid"; message: string }
  | { kind: "unknown_session"; message: string }
  | { kind: "stored"; row: NotificationRow; duplicate: boolean; process: boolean }

/**
 * Takes one webhook (spec §6.2) into the inbox: validates its shape, checks
 * the reference is one of this store's payments, and stores it once. Used by
 * the plugin's webhook route and, as a safety net, by the providers when a
 * merchant pointed the service at Medusa's generic /hooks/payment route.
 */
export async function takeWebhook(db: Knex, body: unknown, rawBody?: Buffer | string | null): Promise<WebhookIntake> {
  if (hasNulCharacter(body)) return { kind: "invalid", message: "Invalid payment notification: NUL characters are not allowed." }
  const parsed = webhookSchema.safeParse(body ?? {})
  if (!parsed.success) return { kind: "invalid", message: `Invalid payment notification: ${zodMessage(parsed.error)}` }
  const n = parsed.data
  const payment = await new PaymentStore(db).get(n.order_id)
  if (!payment) return { kind: "unknown_session", message: `No payment of this store has order_id ${n.order_id}.` }
  const raw = rawBody == null ? null : Buffer.isBuffer(rawBody) ? rawBody.toString("utf8") : String(rawBody)
  const { row, duplicate } = await new NotificationInbox(db).store({
    source: "webhook",
    dedupe_key: dedupeKey(n.uuid, n.status),
    session_id: n.order_id,
    service_uuid: n.uuid,
    status: n.status,
    type: n.type ?? null,
    payload: n as Record<string, unknown>,
    raw_body: raw ? raw.slice(0, 64 * 1024) : null,
  })
  // A repeat of a notification that is still waiting may kick it; a finished one is left alone.
  return { kind: "stored", row, duplicate, process: !duplicate || row.state === "received" || row.state === "retry" }
}
