/**
 * Customer journeys against Medusa processes started by medusa-process.ts
 * (plain HTTP: the store API, the emulator's checkout pages and its control API).
 */
import { openCheckout, payByCard, waitFor } from "./checkout-driver"
import { startEmulatorProcess, type EmulatorProcess } from "./emulator-process"
import { stopAll } from "../../scripts/lib/processes"
import { cartOutcome, httpApi, prepareMedusaApp, type MedusaApp } from "./medusa-process"
import { CHECKOUT_PROVIDER, cartWithSession, completeCart, pendingTransferCart, serviceOrderIdOf } from "./store"

export { waitFor }

export interface ApprovedCard {
  cartId: string
  sessionId: string
  /** Where the service sends the browser back (the return route of the process that signed the form). */
  successUrl: string
  /** The service's webhook body, held back (webhooks paused) so the test can deliver it. */
  webhook: Record<string, unknown>
}

/**
 * Quick Checkout paid by card with the service's webhooks paused: nothing
 * has reached Medusa yet; the test delivers the webhook and the redirect.
 */
export async function approvedCardPayment(app: Pick<MedusaApp, "seed">, emulator: EmulatorProcess, baseUrl: string): Promise<ApprovedCard> {
  const api = httpApi(baseUrl)
  await emulator.control("POST", "/_control/webhooks", { paused: true })
  const { cart, session, response } = await cartWithSession(api, app.seed, CHECKOUT_PROVIDER, {})
  if (response.status !== 200) throw new Error(`payment session: HTTP ${response.status} ${JSON.stringify(response.data)}`)
  const { data } = await api.post(`/store/odeme/payment-sessions/${session.id}/form`, { cart_id: cart.id }, app.seed.headers)
  const page = await openCheckout(data.form)
  const successUrl = await payByCard(page, "approve")
  const webhook = await waitFor(async () => {
    const hooks: any[] = (await emulator.control("GET", "/_control/webhooks")).result ?? []
    return hooks.reverse().find((h) => h.body?.order_id === serviceOrderIdOf(session))?.body
  }, 10_000)
  return { cartId: cart.id, sessionId: session.id, successUrl, webhook }
}

export function postWebhook(baseUrl: string, body: unknown, timeoutMs = 30_000) {
  return fetch(`${baseUrl}/odeme/webhook`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(timeoutMs),
  })
}

/** The browser's return hop, sent to another process than the one that signed the form if asked. */
export function followReturn(successUrl: string, baseUrl?: string) {
  const u = new URL(successUrl)
  const target = baseUrl ? new URL(u.pathname + u.search, baseUrl).toString() : successUrl
  return fetch(target, { redirect: "manual", signal: AbortSignal.timeout(30_000) })
}

/** A bank transfer order in "awaiting" state (the service keeps the transfer pending). */
export async function pendingTransferOrder(app: Pick<MedusaApp, "seed">, emulator: EmulatorProcess, baseUrl: string) {
  const api = httpApi(baseUrl)
  const { cart, session, response } = await pendingTransferCart(api, app.seed)
  if (response.status !== 200) throw new Error(`payment session: HTTP ${response.status} ${JSON.stringify(response.data)}`)
  const res = await completeCart(api, app.seed, cart.id)
  if (res.data?.type !== "order") throw new Error(`cart.complete: ${JSON.stringify(res.data).slice(0, 300)}`)
  const transfers: any[] = (await emulator.control("GET", "/_control/transfers")).result
  const t = transfers.find((x) => x.order_id === serviceOrderIdOf(session))
  return {
    cartId: cart.id as string,
    sessionId: session.id as string,
    reference: serviceOrderIdOf(session),
    uuid: t.uuid as string,
    orderId: res.data.order.id as string,
  }
}

/** Transfers the service holds for one payment, by the `order_id` it was sent (serviceOrderIdOf: the session's reference). */
export async function transfersOf(emulator: EmulatorProcess, orderId: string): Promise<any[]> {
  const transfers: any[] = (await emulator.control("GET", "/_control/transfers")).result
  return transfers.filter((x) => x.order_id === orderId)
}

/** An emulator process and a prepared app whose processes talk to it (plus `env`). */
export async function appWithEmulator(label: string, env: Record<string, string>): Promise<{ emulator: EmulatorProcess; app: MedusaApp }> {
  const emulator = await startEmulatorProcess()
  const app = await prepareMedusaApp(label, {
    env: { ODEME_BASE_URL: emulator.url, ODEME_API_KEY: emulator.apiKey, ODEME_API_ID: String(emulator.apiId), ...env },
  })
  return { emulator, app }
}

/** Resolves with the cart's outcome once it has an order and a capture. */
export function paidOutcome(app: Pick<MedusaApp, "sql">, cartId: string, timeoutMs = 30_000) {
  return waitFor(async () => {
    const o = await cartOutcome(app, cartId)
    return o.orders >= 1 && o.captures >= 1 ? o : undefined
  }, timeoutMs)
}

/** A process-based file's afterAll: its app and emulator, then every process it started (a start a hook's timeout abandoned is in no list). */
export async function stopProcesses(app?: { close(): Promise<void> }, emulator?: { stop(): Promise<void> }): Promise<void> {
  try {
    await app?.close()
    await emulator?.stop()
  } finally {
    await stopAll()
  }
}
