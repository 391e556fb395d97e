import type OdemeModuleService from "../modules/odeme/service"
import type { StoredNotification, StoreResult } from "../modules/odeme/service"
import type { NotificationInput } from "../modules/odeme/types"
import {
  contentKey,
  decodeWebhookText,
  hasUnstorableText,
  isFields,
  storableFields,
  storableText,
  webhookSchema,
  zodMessage,
} from "./notification-shape"

export type WebhookIntake =
  | { kind: "invalid"; message: string }
  /** For a reference this store never made: counted (Settings → Odeme), answered as any other. */
  | { kind: "stray" }
  | { kind: "stored"; row: StoredNotification; duplicate: boolean; process: boolean }
  | { kind: "bounded"; message: string }

/** A webhook body that passed validation, ready to be stored. */
export type ParsedWebhook = { kind: "valid"; input: NotificationInput } | { kind: "invalid"; message: string }

/** Who delivered it, as far as the store can tell before verify (the route's `webhook.serviceAddresses`). */
export interface Delivery {
  /** From an address the merchant named as the service's: verified ahead of the rest, outside the session's budget. */
  trusted: boolean
}

/**
 * Checks one webhook (spec §6.2) without touching the database. Only junk is
 * refused: a body that is neither JSON nor form-encoded fields, or one
 * without the four fields verify is sent (order_id, uuid, status, hash) as
 * text or numbers. Everything else is kept as it came and judged after
 * verify. The body is read from its raw text when there is one (whatever the
 * content type said); `body` is what a parser of Medusa's made of it.
 */
export function parseWebhook(body: unknown, rawBody?: Buffer | string | null, from: Delivery = { trusted: false }): ParsedWebhook {
  const raw = rawBody == null ? null : Buffer.isBuffer(rawBody) ? rawBody.toString("utf8") : String(rawBody)
  const fields =
    (raw !== null && raw.trim() ? decodeWebhookText(raw) : null) ??
    (typeof body === "string" ? decodeWebhookText(body) : isFields(body) ? body : null)
  if (!fields) return { kind: "invalid", message: "Invalid payment notification: the body must be JSON or form-encoded fields." }
  const parsed = webhookSchema.safeParse(fields)
  if (!parsed.success) return { kind: "invalid", message: `Invalid payment notification: ${zodMessage(parsed.error)}` }
  const arrived = verifyFields(fields)
  // Verify is sent these as they arrived: text PostgreSQL cannot keep could not be sent from the inbox.
  if (hasUnstorableText(arrived))
    return { kind: "invalid", message: "Invalid payment notification: order_id, uuid, status and hash must be plain text." }
  const n = parsed.data
  return {
    kind: "valid",
    input: {
      source: "webhook",
      // The content as it arrived, so copies that differ in anything are verified apart.
      dedupe_key: contentKey(fields),
      session_id: n.order_id,
      service_uuid: n.uuid,
      status: n.status,
      type: n.type ? n.type.slice(0, 50) : null,
      trusted: from.trusted,
      // Every field as it came; `arrived` and `medusa_hook` are the plugin's own (a body's fields of those names stay in raw_body).
      payload: { ...storableFields(fields), arrived, medusa_hook: undefined },
      raw_body: raw ? storableText(raw.slice(0, 64 * 1024)) : null,
    },
  }
}

/** Stores a checked webhook once, in one statement that also checks the reference is one of this store's payments. */
export async function storeWebhook(
  odeme: OdemeModuleService,
  input: NotificationInput,
  store: (input: NotificationInput) => Promise<StoreResult> = (i) => odeme.storeNotification(i)
): Promise<Exclude<WebhookIntake, { kind: "invalid" | "bounded" }>> {
  const stored = await store(input)
  if (!stored) return { kind: "stray" }
  const { row, duplicate } = stored
  // A repeat of a notification never taken up (or a redelivery of a dead one) may kick it; one waiting
  // for its retry keeps its backoff.
  return { kind: "stored", row, duplicate, process: !duplicate || row.state === "received" || (row.state === "retry" && row.attempts === 0) }
}

/**
 * Takes one webhook into the inbox: checks it, then stores it. Used by the
 * providers as a safety net when a merchant pointed the service at Medusa's
 * generic /hooks/payment route; the plugin's own route runs the two steps
 * itself so that junk never counts as ingest.
 *
 * Medusa's route answers before the plugin sees the body, so it cannot be
 * told apart from junk there: the rows a session has waiting are bounded
 * instead. Forged copies are refused by verify within seconds, so a session
 * rarely has more than a few open; a genuine copy stored before a flood is
 * among them. One turned away (only while someone floods that session with
 * forged copies) is found by the customer's return or, for an API transfer,
 * the poller: Medusa has answered for it, so the service has no reason to
 * deliver it again.
 */
export async function takeWebhook(odeme: OdemeModuleService, body: unknown, rawBody?: Buffer | string | null): Promise<WebhookIntake> {
  const parsed = parseWebhook(body, rawBody)
  if (parsed.kind === "invalid") return parsed
  // The rows are the session's, whichever way the service named it (its reference, or the id of an older session).
  const sessionId = (await odeme.sessionOfOrderId(parsed.input.session_id!)) ?? parsed.input.session_id!
  if ((await odeme.countOpenWebhooks(sessionId, MAX_OPEN_GENERIC_WEBHOOKS)) >= MAX_OPEN_GENERIC_WEBHOOKS) {
    return {
      kind: "bounded",
      message: `session ${sessionId} already has ${MAX_OPEN_GENERIC_WEBHOOKS} notifications waiting to be verified`,
    }
  }
  // Marked, so Settings → Odeme can tell the merchant the URL in the merchant panel is Medusa's, not the plugin's.
  const input = { ...parsed.input, payload: { ...parsed.input.payload, medusa_hook: true } }
  // Medusa has answered 200 already: the route's flood bounds would turn this one away, with no 503 to have it delivered again.
  return storeWebhook(odeme, input, (i) => odeme.storeNotificationUnbounded(i))
}

/** Open notifications one session may have from Medusa's generic hook route. */
export const MAX_OPEN_GENERIC_WEBHOOKS = 50

/**
 * The fields verify is sent (spec §4.8: "from the notification"), exactly as
 * they arrived: the parsed ones are trimmed and the status normalised, and the
 * service's hash may cover the words as it sent them.
 */
function verifyFields(body: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {}
  for (const k of VERIFY_FIELDS) if (typeof body[k] === "string" || typeof body[k] === "number") out[k] = String(body[k])
  return out
}

const VERIFY_FIELDS = ["order_id", "uuid", "status", "hash"] as const
