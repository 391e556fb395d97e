/**
 * What the Quick Checkout HTTP specs share: a store with the checkout provider
 * reset before each test, the plugin's rows, and the customer's steps.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { openCheckout, payByCard, waitFor } from "./checkout-driver"
import { resetEmulator, type OdemeTestEnvironment } from "./environment"
import { cartOutcome, ordersOfCart } from "./inspect"
import { CHECKOUT_PROVIDER, cartWithSession, seedStore, type SeededStore } from "./store"

export const STOREFRONT = "http://localhost:8000"

export function checkoutSuite({ api, getContainer, env }: { api: any; getContainer: () => MedusaContainer; env: OdemeTestEnvironment }) {
  let store: SeededStore

  /** Call in beforeEach: a clean emulator (fast webhook retries) and a fresh store. */
  async function reset(): Promise<SeededStore> {
    await resetEmulator(env)
    store = await seedStore(getContainer(), { providers: [CHECKOUT_PROVIDER] })
    return store
  }

  const db = () => getContainer().resolve(ContainerRegistrationKeys.PG_CONNECTION)
  const notifications = async () => db()("odeme_notification").select("*").orderBy("created_at")
  const paymentRow = async (sessionId: string) => db()("odeme_payment").where({ session_id: sessionId }).first()
  /** Waits until `copies` notifications of the session arrived and none is still being worked on. */
  const settled = (sessionId: string, copies: number) =>
    waitFor(async () => {
      const rows = (await notifications()).filter((n: any) => n.session_id === sessionId)
      const arrived = rows.reduce((n: number, r: any) => n + Number(r.duplicate_count ?? 0) + 1, 0)
      return arrived >= copies && rows.every((r: any) => r.state !== "received" && r.state !== "processing")
    })
  const captureCount = async (cartId: string) => (await cartOutcome(getContainer(), cartId)).captures
  const postWebhook = (body: unknown) =>
    fetch(`${env.backendUrl}/odeme/webhook`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) })

  async function freshForm(sessionId: string, cartId: string) {
    const res = await api.post(`/store/odeme/payment-sessions/${sessionId}/form`, { cart_id: cartId }, store.headers)
    return res.data.form
  }

  async function startCheckout() {
    const { cart, session, response } = await cartWithSession(api, store, CHECKOUT_PROVIDER, {})
    expect(response.status).toBe(200)
    return { cart, session }
  }

  async function paidOrder(cartId: string) {
    return waitFor(async () => {
      const orders = await ordersOfCart(getContainer(), cartId)
      const captured = orders[0]?.payment_collections?.[0]?.payments?.[0]?.captured_at
      return orders.length === 1 && captured ? orders : undefined
    })
  }

  /** A card payment approved at the service with its webhook held back: the test delivers it. */
  async function approvedWithPausedWebhook() {
    const { cart, session } = await startCheckout()
    await env.emulator.control("POST", "/_control/webhooks", { paused: true })
    const page = await openCheckout(await freshForm(session.id, cart.id))
    const successUrl = await payByCard(page, "approve")
    const hooks = (await env.emulator.control("GET", "/_control/webhooks")).result ?? []
    return { cart, session, successUrl, body: hooks[hooks.length - 1].body }
  }

  return { reset, db, notifications, paymentRow, settled, captureCount, postWebhook, freshForm, startCheckout, paidOrder, approvedWithPausedWebhook }
}
