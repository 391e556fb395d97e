import { follow, openCheckout, payByCard, waitFor } from "../../integration-tests/utils/checkout-driver"
import { ordersOfCart } from "../../integration-tests/utils/inspect"
import { CHECKOUT_PROVIDER, cartWithSession, completeCart, type SeededStore } from "../../integration-tests/utils/store"
import { completeWhenPaid, type OdemeCartCompletion } from "../../src/storefront/wait-for-payment"
import { CFG, log, medianOfRuns, round, settle } from "../support"
import type { BenchContext } from "./context"
import { recordLockWaits, type LockWaits } from "./lock-waits"

/** Medusa's own provider, registered by the payment module in every store. */
export const SYSTEM_PROVIDER = "pp_system_default"

type Checkout = { cartId: string; sessionId: string; page?: string }

/**
 * Settling at rush hour: CFG.rushCheckouts card checkouts through the store
 * API at once. Each shopper approves on the service's page (the emulator
 * sends its webhook at once), comes back through the plugin's return route,
 * and the storefront completes the cart as docs/design.md tells it to
 * (`completeWhenPaid` of the plugin's storefront helpers), racing the
 * webhook, which completes it too. Timed: the last capture after the last
 * approval. Beside it, in the same run, as many carts with Medusa's system
 * provider, all completed at once: the last order placed after the
 * completions were sent (that provider authorizes and captures nothing
 * later, so its order is its end). The statistic: the ratio of the two.
 */
export async function rushHour(ctx: BenchContext, store: SeededStore) {
  const n = CFG.rushCheckouts
  log(`rush hour: ${n} checkouts at once, plugin then system provider, ${CFG.rushRuns} run(s)`)
  const figures = await medianOfRuns(async (run) => {
    const plugin = await pluginRush(ctx, store, n)
    log(`rush hour ${run + 1}: plugin ${plugin.last_capture_after_last_approval_ms} ms, ${plugin.captured}/${n} captured`)
    const system = await systemRush(ctx, store, n)
    log(`rush hour ${run + 1}: system provider ${system.last_order_after_start_ms} ms, ${system.one_order}/${n} orders`)
    const { lock_waits, storefront, ...pluginFigures } = plugin
    return {
      ...pluginFigures,
      ...prefixed("system_", system),
      ratio_vs_system: round(plugin.last_capture_after_last_approval_ms / Math.max(system.last_order_after_start_ms, 1), 2),
      storefront,
      lock_waits,
    }
  }, CFG.rushRuns)
  return { checkouts: n, ...figures }
}

const prefixed = (p: string, o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).map(([k, v]) => [p + k, v]))

/** Carts with a session of `provider`, five at a time (concurrent first carts of one guest email race in Medusa). */
async function carts(ctx: BenchContext, store: SeededStore, provider: string, n: number, withPage: boolean): Promise<Checkout[]> {
  const out: Checkout[] = []
  for (let i = 0; i < n; i += 5) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(5, n - i) }, async () => {
        const { cart, session } = await cartWithSession(ctx.api, store, provider, {})
        if (!session) throw new Error(`rush hour: no ${provider} session (is it a provider of the region?)`)
        if (!withPage) return { cartId: cart.id, sessionId: session.id }
        const { data } = await ctx.api.post(`/store/odeme/payment-sessions/${session.id}/form`, { cart_id: cart.id }, store.headers)
        return { cartId: cart.id, sessionId: session.id, page: await openCheckout(data.form) }
      })
    )
    out.push(...batch)
  }
  return out
}

async function pluginRush(ctx: BenchContext, store: SeededStore, n: number) {
  const db = ctx.db()
  const checkouts = await carts(ctx, store, CHECKOUT_PROVIDER, n, true)
  await settle()
  const locks = recordLockWaits(ctx.container())
  const approvedAt: number[] = []
  const outcomes = await Promise.all(
    checkouts.map(async (c) => {
      const successUrl = await payByCard(c.page!, "approve")
      approvedAt.push(Date.now())
      return shopperReturns(ctx, store, c, successUrl).catch((err) => `error: ${err instanceof Error ? err.message : String(err)}`)
    })
  )
  const ids = checkouts.map((c) => c.sessionId)
  const captured = async () =>
    (
      await db.raw(
        `select coalesce(p.captured_at, (select min(c.created_at) from capture c where c.payment_id = p.id)) as at
         from payment p where p.payment_session_id = any(?) and p.deleted_at is null`,
        [ids]
      )
    ).rows
      .filter((r: any) => r.at)
      .map((r: any) => new Date(r.at).getTime()) as number[]
  await waitFor(async () => (await captured()).length >= n, 180_000, 250).catch(() => undefined)
  const lock_waits: LockWaits = locks.stop()
  const times = await captured()
  const lastApproval = Math.max(...approvedAt)
  const counts = await orderCounts(ctx, checkouts)
  const storefront: Record<string, number> = {}
  for (const o of outcomes) storefront[o] = (storefront[o] ?? 0) + 1
  return {
    approvals_spread_ms: lastApproval - Math.min(...approvedAt),
    last_capture_after_last_approval_ms: times.length ? Math.max(...times) - lastApproval : NaN,
    captured: times.length,
    one_order: counts.oneOrder,
    one_capture: counts.oneCapture,
    storefront,
    lock_waits,
  }
}

/** The shopper's browser after the service's page: the plugin's return route, then the storefront's completion. */
async function shopperReturns(ctx: BenchContext, store: SeededStore, c: Checkout, successUrl: string): Promise<string> {
  const back = await follow(successUrl)
  if (back.status !== 303) return `return route answered ${back.status}`
  const result = await completeWhenPaid({
    fetchStatus: async () =>
      (await ctx.api.get(`/store/odeme/payment-sessions/${c.sessionId}?cart_id=${c.cartId}`, store.headers)).data.payment_session,
    completeCart: async (): Promise<OdemeCartCompletion<unknown>> => {
      const res = await completeCart(ctx.api, store, c.cartId)
      if (res.status >= 400) throw Object.assign(new Error(res.data?.message ?? `HTTP ${res.status}`), { status: res.status })
      return res.data.type === "order" ? { type: "order", order: res.data.order } : { type: "cart", error: res.data.error }
    },
  })
  return result.outcome
}

async function systemRush(ctx: BenchContext, store: SeededStore, n: number) {
  const checkouts = await carts(ctx, store, SYSTEM_PROVIDER, n, false)
  await settle()
  const t0 = Date.now()
  const answered = await Promise.all(
    checkouts.map(async (c) => {
      const res = await completeCart(ctx.api, store, c.cartId)
      return { at: Date.now(), order: res.status === 200 && res.data.type === "order" }
    })
  )
  const counts = await orderCounts(ctx, checkouts)
  return {
    last_order_after_start_ms: Math.max(...answered.map((a) => a.at)) - t0,
    orders_answered: answered.filter((a) => a.order).length,
    one_order: counts.oneOrder,
  }
}

/** Carts that became exactly one order, and orders that hold exactly one capture. */
async function orderCounts(ctx: BenchContext, checkouts: Checkout[]) {
  let oneOrder = 0
  let oneCapture = 0
  for (const c of checkouts) {
    const orders = await ordersOfCart(ctx.container(), c.cartId)
    if (orders.length !== 1) continue
    oneOrder++
    const captures = (orders[0].payment_collections ?? []).flatMap((pc: any) => (pc.payments ?? []).flatMap((p: any) => p.captures ?? []))
    if (captures.length === 1) oneCapture++
  }
  return { oneOrder, oneCapture }
}
