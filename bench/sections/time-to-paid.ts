import { openCheckout, payByCard, waitFor } from "../../integration-tests/utils/checkout-driver"
import { cartWithSession, type SeededStore } from "../../integration-tests/utils/store"
import { CFG, round, sleep, stats } from "../support"
import type { BenchContext } from "./context"

/** Webhook sent by the emulator → payment captured in Medusa, for `provider` with its webhook route. */
export async function timeToPaid(ctx: BenchContext, store: SeededStore, provider: string, webhookPath: string) {
  const db = ctx.db()
  await ctx.emulator.control("POST", "/_control/config", { webhookUrl: ctx.backendUrl + webhookPath })
  const pages: Array<{ sessionId: string; page: string }> = []
  // One cart first: concurrent first carts of a new guest email race in Medusa ("customer already exists").
  await cartWithSession(ctx.api, store, provider, {})
  for (let i = 0; i < CFG.payments; i += 5) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(5, CFG.payments - i) }, async () => {
        const { cart, session } = await cartWithSession(ctx.api, store, provider, {})
        const { data } = await ctx.api.post(`/store/odeme/payment-sessions/${session.id}/form`, { cart_id: cart.id }, store.headers)
        return { sessionId: session.id as string, page: await openCheckout(data.form) }
      })
    )
    pages.push(...batch)
  }
  // Approve one every paymentSpacingMs (the emulator sends the webhook at once), then wait for every capture.
  await Promise.all(pages.map((p, i) => sleep(i * CFG.paymentSpacingMs).then(() => payByCard(p.page, "approve"))))
  const ids = pages.map((p) => p.sessionId)
  const captured = async () =>
    (
      await db.raw(
        `select p.payment_session_id as id, coalesce(p.captured_at, (select min(c.created_at) from capture c where c.payment_id = p.id)) as at
         from payment p where p.payment_session_id = any(?) and p.deleted_at is null`,
        [ids]
      )
    ).rows.filter((r: any) => r.at)
  await waitFor(async () => (await captured()).length === ids.length, 120_000, 250).catch(() => undefined)
  const done = await captured()
  const hooks = ((await ctx.emulator.control("GET", "/_control/webhooks")).result as any[]).filter((h) => ids.includes(h.body.order_id))
  const sentAt = new Map<string, number>()
  for (const h of hooks) {
    const t = Date.parse(h.attempts?.[0]?.time ?? h.created_at)
    if (!sentAt.has(h.body.order_id) || t < sentAt.get(h.body.order_id)!) sentAt.set(h.body.order_id, t)
  }
  const byId = new Map<string, number>(done.map((r: any) => [r.id as string, new Date(r.at).getTime()]))
  const ms = ids.filter((id) => byId.has(id) && sentAt.has(id)).map((id) => byId.get(id)! - sentAt.get(id)!)
  return { provider, webhook: webhookPath, payments: ids.length, captured: done.length, spacing_ms: CFG.paymentSpacingMs, ms: stats(ms) }
}

export async function timeToPaidBoth(ctx: BenchContext, store: SeededStore, pluginProvider: string, refProvider: string) {
  const plugin = await timeToPaid(ctx, store, pluginProvider, "/odeme/webhook")
  const core = await timeToPaid(ctx, store, refProvider, "/hooks/payment/odeme-checkout_ref")
  await ctx.emulator.control("POST", "/_control/config", { webhookUrl: `${ctx.backendUrl}/odeme/webhook` })
  return { plugin, core_reference: core, p50_ratio: round(plugin.ms.p50 / core.ms.p50, 3), p95_ratio: round(plugin.ms.p95 / core.ms.p95, 3) }
}
