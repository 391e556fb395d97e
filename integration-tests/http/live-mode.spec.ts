import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { returnProof } from "../../src/lib/session-tag"
import followCancel from "../../src/subscribers/odeme-order-canceled"
import { createAdmin } from "../utils/admin"
import { openCheckout, payByCard, waitFor } from "../utils/checkout-driver"
import { ordersOfCart, unfinishedWorkflows } from "../utils/inspect"
import { useOdemeEnvironment } from "../utils/environment"
import { CHECKOUT_PROVIDER, cartWithCollection, cartWithSession, completeCart, seedStore, stockedVariant, TRANSFER_PROVIDER } from "../utils/store"

// Live rules: HTTPS merchant URLs, a TRY minimum (converted for other currencies), no sandbox_result.
const env = useOdemeEnvironment({
  mode: "live",
  env: {
    ODEME_BACKEND_URL: "https://api.shop.example",
    ODEME_STOREFRONT_URL: "https://shop.example",
    ODEME_MINIMUM_AMOUNT_TRY: "100",
    // A merchant who refunds only in the merchant panel: Medusa's refunds are refused.
    ODEME_REFUNDS: "reject",
    // A notification Medusa cannot settle yet is retried within a second, not 2, 4, 8 s: no test waits a production timer.
    ODEME_RETRY_BASE_MS: "50",
    // Two failed settles list a payment, not five: each failed settle runs Medusa's stored cart completion once more,
    // and Medusa's engine, on a loaded machine, can leave a failed completion unfinished ("Updating Status from "ok"
    // to "temp_failure" is not allowed") with the cart's lock held for its two minutes, longer than a test waits.
    ODEME_FAILURES_BEFORE_ATTENTION: "2",
  },
})

medusaIntegrationTestRunner({
  cwd: process.cwd(),
  testSuite: ({ api, getContainer }) => {
    beforeEach(async () => {
      await env.emulator.control("POST", "/_control/reset")
    })

    const transfers = async (): Promise<any[]> => (await env.emulator.control("GET", "/_control/transfers")).result

    /** A 250.00 TRY order paid by an API transfer, its webhook verified and captured. */
    async function paidTransferOrder() {
      const store = await seedStore(getContainer(), { price: 250 })
      const { data } = await api.get("/store/odeme/banks", store.headers)
      const ok = await cartWithSession(api, store, TRANSFER_PROVIDER, {
        bank_id: data.bank_groups[0].accounts[0].bank_id,
        customer_name: "Deniz Aksoy",
      })
      const order = (await completeCart(api, store, ok.cart.id)).data.order
      const [t] = await transfers()
      await env.emulator.control("POST", "/_control/webhooks", { paused: true })
      await env.emulator.control("POST", `/_control/transfers/${t.uuid}/settle`, { result: "successful" })
      // The merchant's backend URL is not this test's address: the service's webhook is handed over here.
      const hooks = (await env.emulator.control("GET", "/_control/webhooks")).result
      expect((await api.post("/odeme/webhook", hooks[hooks.length - 1].body)).status).toBe(200)
      const db = () => getContainer().resolve(ContainerRegistrationKeys.PG_CONNECTION)
      const row = async () => db()("odeme_payment").where({ session_id: ok.session.id }).first()
      await waitFor(async () => (await row()).status === "paid" && (await row()).order_id === order.id)
      // Captured in Medusa, not only confirmed here: settling runs after the state is written, and a session
      // Medusa deletes before the capture is a payment with no order (review), not a captured one.
      await waitFor(async () => !!(await db()("payment").where({ payment_session_id: ok.session.id }).first())?.captured_at)
      return { store, ok, order, db }
    }

    it("refuses an amount below the TRY minimum with a clear 400, and creates nothing", async () => {
      const store = await seedStore(getContainer(), { price: 99.99 })
      const { response } = await cartWithSession(api, store, TRANSFER_PROVIDER, {})
      expect(response.status).toBe(400)
      expect(response.data.message).toMatch(/99.99 TRY is below the minimum of 100.00 TRY/)
      expect(await transfers()).toHaveLength(0)
    })

    it("converts USD to TRY for the minimum (2.00 USD × 40 < 100 TRY)", async () => {
      const store = await seedStore(getContainer(), { currency: "usd", price: 2, providers: [TRANSFER_PROVIDER, CHECKOUT_PROVIDER] })
      const transfer = await cartWithSession(api, store, TRANSFER_PROVIDER, {})
      expect(transfer.response.status).toBe(400)
      expect(transfer.response.data.message).toMatch(/below the minimum/)
      const checkout = await cartWithSession(api, store, CHECKOUT_PROVIDER, {})
      expect(checkout.response.status).toBe(400)
    })

    it("refuses a currency the transfer API does not take (GBP)", async () => {
      const store = await seedStore(getContainer(), { currency: "gbp", price: 500 })
      const { response } = await cartWithSession(api, store, TRANSFER_PROVIDER, {})
      expect(response.status).toBe(400)
      expect(response.data.message).toMatch(/supports TRY, USD, EUR; this cart is in GBP/)
    })

    it("refuses sandbox_result in live mode; a live transfer stays pending until the money arrives", async () => {
      const store = await seedStore(getContainer(), { price: 250 })
      const { data } = await api.get("/store/odeme/banks", store.headers)
      const bankId = data.bank_groups[0].accounts[0].bank_id
      const refused = await cartWithSession(api, store, TRANSFER_PROVIDER, {
        bank_id: bankId,
        customer_name: "Deniz Aksoy",
        sandbox_result: "successful",
      })
      const res = await completeCart(api, store, refused.cart.id)
      expect(res.status).toBe(400)
      expect(res.data.message).toMatch(/sandbox_result is only accepted in sandbox mode/)
      expect(await transfers()).toHaveLength(0)

      const ok = await cartWithSession(api, store, TRANSFER_PROVIDER, { bank_id: bankId, customer_name: "Deniz Aksoy" })
      const placed = await completeCart(api, store, ok.cart.id)
      expect(placed.data.type).toBe("order")
      const [t] = await transfers()
      expect(t.sale_status).toBe(0)
      expect(t.mode).toBe("live")
    })

    it('refunds: "reject" — a captured order canceled by an admin: Medusa goes on past the refused refund, the money is listed to pay back, once', async () => {
      const { ok, order } = await paidTransferOrder()

      const admin = await createAdmin(api, getContainer(), `admin-${Date.now()}@odeme.test`)
      await api.post(`/admin/orders/${order.id}/cancel`, {}, admin.headers)
      const attention = async () =>
        (await api.get("/admin/odeme/attention", admin.headers)).data.items.filter((i: any) => i.session_id === ok.session.id)
      const [item] = await waitFor(async () => ((await attention()).some((i: any) => i.kind === "refund_due") ? attention() : undefined))
      expect(item).toMatchObject({ kind: "refund_due", amount: "250.00", currency: "TRY", order_id: order.id, actions: ["acknowledge"] })

      // Followed again (the order's cancel event once more): still one item for the money.
      await followCancel({ event: { data: { id: order.id } }, container: getContainer() } as never)
      expect((await attention()).filter((i: any) => i.kind === "refund_due")).toHaveLength(1)
    })

    it('refunds: "reject" — the paid session was replaced by a second tab before the admin canceled: its money is still listed to pay back', async () => {
      const { store, ok, order, db } = await paidTransferOrder()

      // A second tab still on the payment step opens another session: Medusa deletes the paid one, its payment keeps the money.
      const collectionId = (await db()("cart_payment_collection").where({ cart_id: ok.cart.id }).first()).payment_collection_id
      const again = await api.post(`/store/payment-collections/${collectionId}/payment-sessions`, { provider_id: CHECKOUT_PROVIDER }, store.headers)
      expect(again.data.payment_collection.payment_sessions.map((s: any) => s.id)).not.toContain(ok.session.id)

      const admin = await createAdmin(api, getContainer(), `admin-${Date.now()}@odeme.test`)
      await api.post(`/admin/orders/${order.id}/cancel`, {}, admin.headers)
      const attention = async () =>
        (await api.get("/admin/odeme/attention", admin.headers)).data.items.filter((i: any) => i.session_id === ok.session.id)
      const [item] = await waitFor(async () => ((await attention()).some((i: any) => i.kind === "refund_due") ? attention() : undefined))
      expect(item).toMatchObject({ kind: "refund_due", amount: "250.00", currency: "TRY", order_id: order.id })
      // The order's page shows that payment and its item too, though Medusa no longer has its session.
      const { data: page } = await api.get(`/admin/odeme/orders/${order.id}/payment`, admin.headers)
      const shown = page.payments.find((p: any) => p.session_id === ok.session.id)
      expect(shown).toEqual(expect.objectContaining({ medusa_session_status: null }))
      expect(shown.attention.map((a: any) => a.kind)).toContain("refund_due")
    })

    it('refunds: "reject" — an order canceled while nothing followed it (the event failed): asking the service again lists the money once', async () => {
      const { ok, order, db } = await paidTransferOrder()
      // Canceled, and the subscriber never ran (its lock timed out, say): the capture is still on the order.
      await db()("order").where({ id: order.id }).update({ status: "canceled", canceled_at: new Date() })
      const admin = await createAdmin(api, getContainer(), `admin-${Date.now()}@odeme.test`)
      const attention = async () =>
        (await api.get("/admin/odeme/attention", admin.headers)).data.items.filter((i: any) => i.session_id === ok.session.id)
      // (A paid transfer stays due until the poller sees it settled: a scheduled pass may find the cancel first.)
      for (let i = 0; i < 2; i++) expect((await api.post(`/admin/odeme/payments/${ok.session.id}/check`, {}, admin.headers)).status).toBe(200)
      expect(await attention()).toEqual([expect.objectContaining({ kind: "refund_due", amount: "250.00", order_id: order.id })])
    })

    it('refunds: "reject" — stock runs out after the card payment: Medusa deletes the session and keeps the capture; settling it again never touches another cart', async () => {
      const store = await seedStore(getContainer(), { price: 250, providers: [CHECKOUT_PROVIDER, "pp_system_default"] })
      // Another shopper's cart, ready to complete: the oldest cart of the store.
      const stranger = await cartWithCollection(api, store, { email: "baska@example.com" })
      await api.post(`/store/payment-collections/${stranger.collectionId}/payment-sessions`, { provider_id: "pp_system_default" }, store.headers)

      const { variantId, setAvailable } = await stockedVariant(getContainer(), store, 1)
      const { cart, collectionId } = await cartWithCollection(api, store, { variantId })
      const created = await api.post(`/store/payment-collections/${collectionId}/payment-sessions`, { provider_id: CHECKOUT_PROVIDER }, store.headers)
      const session = created.data.payment_collection.payment_sessions[0]
      const form = (await api.post(`/store/odeme/payment-sessions/${session.id}/form`, { cart_id: cart.id }, store.headers)).data.form
      await env.emulator.control("POST", "/_control/webhooks", { paused: true })
      await payByCard(await openCheckout(form), "approve")
      const hooks = (await env.emulator.control("GET", "/_control/webhooks")).result
      await setAvailable(0)
      expect((await api.post("/odeme/webhook", hooks[hooks.length - 1].body)).status).toBe(200)

      // Medusa's compensation deleted the session; its refund was refused, so the payment still holds the money,
      // and the notification is tried again on that payment.
      const db = () => getContainer().resolve(ContainerRegistrationKeys.PG_CONNECTION)
      await waitFor(
        async () => ((await db()("odeme_notification").where({ session_id: session.id, source: "webhook" }).first())?.attempts ?? 0) >= 2,
        60_000
      )
      // Settling keeps failing (the cart cannot complete and the money cannot be given back here): a person sees it.
      const admin = await createAdmin(api, getContainer(), `admin-${Date.now()}@odeme.test`)
      const item = await waitFor(
        async () =>
          (await api.get("/admin/odeme/attention", admin.headers)).data.items.find((i: any) => i.session_id === session.id && i.kind === "stuck"),
        60_000
      ).catch(async (err) => {
        // What each attempt failed on, for a run where the item is late (a slow machine once took minutes).
        const rows = await db()("odeme_notification").where({ session_id: session.id }).select("source", "state", "attempts", "last_error")
        const row = await db()("odeme_payment").where({ session_id: session.id }).first("status", "settle_failures", "last_result")
        const unfinished = await unfinishedWorkflows(getContainer())
        throw new Error(
          `${err.message}; payment ${JSON.stringify(row)}; notifications ${JSON.stringify(rows)}; Medusa's unfinished workflows ${JSON.stringify(unfinished)}`
        )
      })
      expect(item).toMatchObject({ code: "settle_failing", amount: "250.00", cart_id: cart.id })
      // Medusa's reason reaches the merchant (its stored workflows throw a plain object, not an Error).
      const { last_error } = await db()("odeme_notification").where({ session_id: session.id, source: "webhook" }).first()
      expect(last_error).toMatch(/completing cart \S+ failed: \S/)
      expect(last_error).not.toContain("[object Object]")
      expect(await ordersOfCart(getContainer(), stranger.cart.id)).toHaveLength(0)
      expect(await ordersOfCart(getContainer(), cart.id)).toHaveLength(0)
    })

    it("the Quick Checkout form points the service at HTTPS return URLs", async () => {
      const store = await seedStore(getContainer(), { price: 250, providers: [CHECKOUT_PROVIDER] })
      const { session } = await cartWithSession(api, store, CHECKOUT_PROVIDER, {})
      expect(session.data.form.fields.success_url).toBe(
        `https://api.shop.example/odeme/return/${session.id}/success/${returnProof(env.emulator.apiKey, session.id)}`
      )
      expect(session.data.mode).toBe("live")
    })
  },
})
