/**
 * Project issue 7, the real paths: "the API key never leaves the server" over
 * a card checkout and a bank transfer as a customer makes them, checked over
 * every response, every log line written while this file runs and every
 * payment session's data. The generated (fuzzed) requests are in
 * suites/fuzz.ts (both run last in quick-checkout.spec.ts).
 */
import { openCheckout, payByCard, waitFor } from "../../utils/checkout-driver"
import { ordersOfCart } from "../../utils/inspect"
import { logLines } from "../../utils/log-capture"
import { STOREFRONT, type SecretScan } from "../../utils/secret-scan"
import { CHECKOUT_PROVIDER, TRANSFER_PROVIDER, cartWithSession, completeCart, seedStore } from "../../utils/store"
import type { SuiteContext } from "../../utils/environment"

export function secretsRealPathsSuite({ env, api, getContainer }: SuiteContext, { recorder, inSuite }: SecretScan) {
  const { send, record } = recorder
  describe("no secret on the real paths", () => {
    const { db, freshForm, checkoutSession, assertNoSecretInStoredData } = inSuite({ api, getContainer })

    it("real paths: a card checkout (session → form → approve → webhook) and a bank transfer, with no secret anywhere", async () => {
      const store = await seedStore(getContainer(), { providers: [CHECKOUT_PROVIDER, TRANSFER_PROVIDER] })

      // Card: the webhook is delivered by the emulator; the browser's return hop too.
      const { cart, session } = await checkoutSession(store)
      const page = await openCheckout(await freshForm(store, session.id, cart.id))
      const successUrl = await payByCard(page, "approve")
      const back = await send("GET", successUrl.slice(env.backendUrl.length))
      expect(back.status).toBe(303)
      expect(new URL(back.location!).origin).toBe(STOREFRONT)
      await waitFor(async () => {
        const orders = await ordersOfCart(getContainer(), cart.id)
        return orders.length === 1 && orders[0].payment_collections?.[0]?.payments?.[0]?.captured_at
      })
      const done = await completeCart(api, store, cart.id)
      record("complete", done)
      expect(done.data.type).toBe("order")

      // Transfer through the API: accounts, session, completion (the service approves at once).
      const banks = await send("GET", "/store/odeme/banks", { headers: store.headers.headers })
      expect(banks.status).toBe(200)
      const bankId = JSON.parse(banks.body).bank_groups[0].accounts[0].bank_id
      const t = await cartWithSession(api, store, TRANSFER_PROVIDER, { bank_id: bankId, customer_name: "Ayşe Yılmaz", sandbox_result: "successful" })
      record("session", t.response)
      expect(t.response.status).toBe(200)
      const placed = await completeCart(api, store, t.cart.id)
      record("complete", placed)
      expect(placed.data.type).toBe("order")
      const status = await send("GET", `/store/odeme/payment-sessions/${t.session.id}?cart_id=${t.cart.id}`, { headers: store.headers.headers })
      expect(status.status).toBe(200)

      // Let the emulator's webhooks (card and transfer) be delivered and processed before the next test resets the database.
      await waitFor(async () => {
        const hooks = (await env.emulator.control("GET", "/_control/webhooks")).result as Array<{ state: string }>
        const open = await db()("odeme_notification").whereNotIn("state", ["done", "dead"]).count("* as n")
        return hooks.length >= 1 && hooks.every((h) => h.state === "delivered") && Number(open[0].n) === 0
      }, 30_000)
      await assertNoSecretInStoredData()
      // The plugin's own lines of the real paths were written (so the log check after each test is not vacuous).
      expect(logLines.some((l) => l.includes("medusa-payment-odeme: notification") && l.includes(": paid"))).toBe(true)
    })
  })
}
