import { Modules } from "@medusajs/framework/utils"
import { openCheckout, payByCard, waitFor } from "../../integration-tests/utils/checkout-driver"
import { cartWithSession, serviceOrderIdOf, type SeededStore } from "../../integration-tests/utils/store"
import { CFG, round, sleep, stats } from "../support"
import type { BenchContext } from "./context"
import { recordLockWaits } from "./lock-waits"

/** Medusa's core hook route runs its event this late (`webhook_delay` of the payment module's options, 5 s unless set). */
export function coreWebhookDelayMs(ctx: BenchContext): number {
  const options = (ctx.container().resolve(Modules.PAYMENT) as any).options ?? {}
  return options.webhook_delay || 5000
}

/** Webhook sent by the emulator → payment captured in Medusa, for `provider` with its webhook route. */
export async function timeToPaid(ctx: BenchContext, store: SeededStore, provider: string, webhookPath: string) {
  const db = ctx.db()
  await ctx.emulator.control("POST", "/_control/config", { webhookUrl: ctx.backendUrl + webhookPath })
  const pages: Array<{ sessionId: string; orderId: string; page: string }> = []
  // One cart first: concurrent first carts of a new guest email race in Medusa ("customer already exists").
  await cartWithSession(ctx.api, store, provider, {})
  for (let i = 0; i < CFG.payments; i += 5) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(5, CFG.payments - i) }, async () => {
        const { cart, session } = await cartWithSession(ctx.api, store, provider, {})
        const { data } = await ctx.api.post(`/store/odeme/payment-sessions/${session.id}/form`, { cart_id: cart.id }, store.headers)
        return { sessionId: session.id as string, orderId: serviceOrderIdOf(session), page: await openCheckout(data.form) }
      })
    )
    pages.push(...batch)
  }
  const ids = pages.map((p) => p.sessionId)
  const locks = recordLockWaits(ctx.container())
  // Approve one every paymentSpacingMs (the emulator sends the webhook at once), then wait for every capture.
  await Promise.all(pages.map((p, i) => sleep(i * CFG.paymentSpacingMs).then(() => payByCard(p.page, "approve"))))
  const captured = async () =>
    (
      await db.raw(
        `select p.payment_session_id as id, coalesce(p.captured_at, (select min(c.created_at) from capture c where c.payment_id = p.id)) as at
         from payment p where p.payment_session_id = any(?) and p.deleted_at is null`,
        [ids]
      )
    ).rows.filter((r: any) => r.at)
  await waitFor(async () => (await captured()).length === ids.length, 120_000, 250).catch(() => undefined)
  const lockWaits = locks.stop()
  const done = await captured()
  // The service knows each payment by the order_id it was sent (the short reference): back to its session.
  const sessionOf = new Map(pages.map((p) => [p.orderId, p.sessionId]))
  const hooks = ((await ctx.emulator.control("GET", "/_control/webhooks")).result as any[]).filter((h) => sessionOf.has(h.body.order_id))
  const sentAt = new Map<string, number>()
  for (const h of hooks) {
    const id = sessionOf.get(h.body.order_id)!
    const t = Date.parse(h.attempts?.[0]?.time ?? h.created_at)
    if (!sentAt.has(id) || t < sentAt.get(id)!) sentAt.set(id, t)
  }
  const byId = new Map<string, number>(done.map((r: any) => [r.id as string, new Date(r.at).getTime()]))
  const ms = ids.filter((id) => byId.has(id) && sentAt.has(id)).map((id) => byId.get(id)! - sentAt.get(id)!)
  const out = { provider, webhook: webhookPath, payments: ids.length, captured: done.length, spacing_ms: CFG.paymentSpacingMs, ms: stats(ms) }
  if (webhookPath !== "/odeme/webhook") return out
  return { ...out, phases: await pluginPhases(db, ids, sentAt, byId), lock_waits: lockWaits }
}

/**
 * Where the plugin's time to paid goes, per payment, from the rows' own
 * times: sent → stored (the webhook's row in the inbox), stored → captured,
 * and how many webhook rows needed more than one attempt (a retry waits
 * for its next_attempt_at).
 */
async function pluginPhases(db: any, ids: string[], sentAt: Map<string, number>, capturedAt: Map<string, number>) {
  const { rows } = await db.raw(
    `select session_id as id, min(created_at) as stored_at, max(attempts)::int as attempts
     from odeme_notification where source = 'webhook' and session_id = any(?) group by session_id`,
    [ids]
  )
  const sentToStored: number[] = []
  const storedToCaptured: number[] = []
  for (const r of rows) {
    const stored = new Date(r.stored_at).getTime()
    if (sentAt.has(r.id)) sentToStored.push(stored - sentAt.get(r.id)!)
    if (capturedAt.has(r.id)) storedToCaptured.push(capturedAt.get(r.id)! - stored)
  }
  return {
    sent_to_stored_ms: stats(sentToStored),
    stored_to_captured_ms: stats(storedToCaptured),
    retried: rows.filter((r: any) => r.attempts > 1).length,
  }
}

/**
 * Both paths one after the other. The goal's statistic: the plugin's p50
 * divided by the core route's p50 less its fixed delay (the work Medusa's
 * own path does once its event runs).
 */
export async function timeToPaidBoth(ctx: BenchContext, store: SeededStore, pluginProvider: string, refProvider: string) {
  const plugin = await timeToPaid(ctx, store, pluginProvider, "/odeme/webhook")
  const core = await timeToPaid(ctx, store, refProvider, "/hooks/payment/odeme-checkout_ref")
  await ctx.emulator.control("POST", "/_control/config", { webhookUrl: `${ctx.backendUrl}/odeme/webhook` })
  const delay = coreWebhookDelayMs(ctx)
  const coreAfterDelay = round(core.ms.p50 - delay, 1)
  return {
    plugin,
    core_reference: core,
    core_delay_ms: delay,
    core_p50_after_delay_ms: coreAfterDelay,
    p50_ratio_vs_core_after_delay: round(plugin.ms.p50 / Math.max(coreAfterDelay, 1), 2),
    p50_ratio: round(plugin.ms.p50 / core.ms.p50, 3),
    p95_ratio: round(plugin.ms.p95 / core.ms.p95, 3),
  }
}
