import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import { randomUUID } from "node:crypto"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { applyServiceAnswer } from "../../src/workflows/payment-state/apply-service-answer"
import { pollTransfers } from "../../src/workflows/poller/poll-transfers"
import { createAdmin, type AdminSession } from "../utils/admin"
import { follow, openCheckout, payByCard, waitFor } from "../utils/checkout-driver"
import { resetEmulator, useOdemeEnvironment } from "../utils/environment"
import { cartOutcome, ordersOfCart } from "../utils/inspect"
import {
  CHECKOUT_PROVIDER,
  TRANSFER_PROVIDER,
  cartWithCollection,
  cartWithSession,
  completeCart,
  pendingTransferCart,
  seedStore,
  serviceOrderIdOf,
  stockedVariant,
  type SeededStore,
} from "../utils/store"

/**
 * The order's life around the plugin (issue 23): what Medusa does to an order
 * or a session, and what a merchant's setup does to notifications, must still
 * end every service payment as one capture of a live order or as an item in
 * "needs attention".
 */
const env = useOdemeEnvironment({
  env: {
    // Transfers are polled by the tests; the scheduled job would race them (1 January only: a pass still
    // retries the inbox with transfer checks off).
    ODEME_POLLER_ENABLED: "false",
    ODEME_POLL_SCHEDULE: "0 0 1 1 *",
    // The storefront server (here: the test) passes its customer's address on.
    ODEME_TRUSTED_STOREFRONTS: "127.0.0.1,::1",
    // Three seconds instead of five minutes: no test waits out a production timer.
    ODEME_UNCONFIRMED_AFTER_MINUTES: "0.05",
  },
})

medusaIntegrationTestRunner({
  cwd: process.cwd(),
  testSuite: ({ api, getContainer }) => {
    let store: SeededStore
    let admin: AdminSession
    const db = () => getContainer().resolve(ContainerRegistrationKeys.PG_CONNECTION)
    const row = async (sessionId: string) => db()("odeme_payment").where({ session_id: sessionId }).first()
    const transfers = async (): Promise<any[]> => (await env.emulator.control("GET", "/_control/transfers")).result
    const attention = async () => (await api.get("/admin/odeme/attention", admin.headers)).data

    beforeEach(async () => {
      await resetEmulator(env, [300, 600, 1200])
      store = await seedStore(getContainer(), { providers: [TRANSFER_PROVIDER, CHECKOUT_PROVIDER] })
      admin = await createAdmin(api, getContainer(), `admin-${Date.now()}@odeme.test`)
    })

    /** A cart paid by card on Quick Checkout and become its order, the payment linked to it. */
    async function paidCardOrder() {
      const { cart, session } = await cartWithSession(api, store, CHECKOUT_PROVIDER, {})
      const { form } = (await api.post(`/store/odeme/payment-sessions/${session.id}/form`, { cart_id: cart.id }, store.headers)).data
      await payByCard(await openCheckout(form), "approve")
      const [order] = await waitFor(async () => {
        const orders = await ordersOfCart(getContainer(), cart.id)
        return orders.length && (await row(session.id)).order_id ? orders : undefined
      })
      return { cart, session, order }
    }

    async function awaitingTransferOrder(headers: Record<string, string> = {}) {
      const { cart, session, collectionId } = await pendingTransferCart(api, store, "Ayşe Yılmaz", headers)
      const res = await completeCart(api, store, cart.id)
      expect(res.data.type).toBe("order")
      const [t] = (await transfers()).filter((x) => x.order_id === serviceOrderIdOf(session))
      return { cart, session, collectionId, transfer: t, order: res.data.order }
    }

    it("stock runs out between the card payment and its processing: no order, Medusa's compensation refund a to-do, the payment listed; paying again is flagged", async () => {
      const { variantId, setAvailable } = await stockedVariant(getContainer(), store, 1)
      const { cart, collectionId } = await cartWithCollection(api, store, { variantId })
      const created = await api.post(
        `/store/payment-collections/${collectionId}/payment-sessions`,
        { provider_id: CHECKOUT_PROVIDER, data: {} },
        store.headers
      )
      const first = created.data.payment_collection.payment_sessions[0]
      const form = async (sessionId: string) =>
        (await api.post(`/store/odeme/payment-sessions/${sessionId}/form`, { cart_id: cart.id }, store.headers)).data.form

      await env.emulator.control("POST", "/_control/webhooks", { paused: true })
      await payByCard(await openCheckout(await form(first.id)), "approve")
      const hooks = (await env.emulator.control("GET", "/_control/webhooks")).result
      const genuine = hooks[hooks.length - 1].body
      // The last one is sold elsewhere before the notification is processed.
      await setAvailable(0)
      const res = await fetch(`${env.backendUrl}/odeme/webhook`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(genuine),
      })
      expect(res.status).toBe(200)

      // The payment goes to review (its session is gone); the money is given back once: Medusa's refund is the item,
      // and the service payment stays the session's own, not a second "give it back" (two would invite two refunds).
      await waitFor(async () => (await row(first.id)).review_code === "session_gone", 60_000)
      const items = (await attention()).items.filter((i: any) => i.session_id === first.id)
      expect(items).toEqual([
        expect.objectContaining({ kind: "refund_due", amount: "250.00", currency: "TRY", cart_id: cart.id, service_uuids: [genuine.uuid] }),
      ])
      const charges = await db()("odeme_charge").where({ session_id: first.id, service_uuid: genuine.uuid })
      expect(charges.map((c: any) => [c.status, c.role])).toEqual([["successful", "primary"]])
      expect(await ordersOfCart(getContainer(), cart.id)).toHaveLength(0)
      expect((await row(first.id)).status).toBe("review")

      // Restocked; the customer pays again: one order, and the first payment's items name it.
      await setAvailable(1)
      await env.emulator.control("POST", "/_control/webhooks", { paused: false })
      const again = await api.post(
        `/store/payment-collections/${collectionId}/payment-sessions`,
        { provider_id: CHECKOUT_PROVIDER, data: {} },
        store.headers
      )
      const pc = again.data.payment_collection
      const second = pc.payment_sessions.find((p: any) => p.id !== first.id)
      await payByCard(await openCheckout(await form(second.id)), "approve")
      const orders = await waitFor(async () => {
        const o = await ordersOfCart(getContainer(), cart.id)
        return o.length === 1 && (await row(second.id)).status === "paid" && (await row(second.id)).order_id ? o : undefined
      }, 60_000)
      expect(orders).toHaveLength(1)
      const flagged = (await attention()).items.filter((i: any) => i.session_id === first.id)
      expect(flagged.map((i: any) => i.kind)).toEqual(["refund_due"])
      for (const item of flagged) expect(item.order_id).toBe(orders[0].id)
    })

    it("the poller's reconciler: a creation claim a stopped process left open becomes unknown and listed; a paid payment Medusa never captured is listed after a few passes", async () => {
      const { session } = await pendingTransferCart(api, store)
      const hourAgo = new Date(Date.now() - 3_600_000)
      await db()("odeme_payment").where({ session_id: session.id }).update({ creation_state: "creating", creation_started_at: hourAgo })
      const first = await pollTransfers(getContainer())
      expect(first.reconciled).toMatchObject({ creations_ended: 1 })
      expect(await row(session.id)).toMatchObject({ status: "unknown", creation_state: "unknown", review_code: null })
      expect((await attention()).items.filter((i: any) => i.session_id === session.id)).toEqual([
        expect.objectContaining({ kind: "unknown_outcome" }),
      ])

      // Paid here (a path that stopped half-way), never captured in Medusa.
      const { cart, session: paid } = await cartWithSession(api, store, CHECKOUT_PROVIDER, {})
      await db()("odeme_payment").where({ session_id: paid.id }).update({ status: "paid", cart_id: cart.id, updated_at: hourAgo })
      for (let pass = 0; pass < 5; pass++) {
        await db()("odeme_payment").where({ session_id: paid.id }).update({ updated_at: hourAgo })
        expect((await pollTransfers(getContainer())).reconciled).toMatchObject({ failing: 1 })
      }
      expect((await attention()).items.filter((i: any) => i.session_id === paid.id)).toEqual([
        expect.objectContaining({ kind: "stuck", code: "settle_failing" }),
      ])

      // Settled at last (the service's confirmation arrives): the failures counted before no longer stand, the item goes.
      const { session: settled, cart: settledCart } = await awaitingTransferOrder()
      await db()("odeme_payment")
        .where({ session_id: settled.id })
        .update({ status: "paid", cart_id: settledCart.id, order_id: null, settle_failures: 7, updated_at: hourAgo })
      await env.emulator.control(
        "POST",
        `/_control/transfers/${(await transfers()).find((t) => t.order_id === serviceOrderIdOf(settled)).uuid}/settle`,
        {
          result: "successful",
        }
      )
      await waitFor(async () => (await row(settled.id)).order_id && (await row(settled.id)).settle_failures === 0, 30_000)
      expect((await attention()).items.filter((i: any) => i.session_id === settled.id)).toEqual([])
    })

    it("the poller's reconciler follows a canceled order whose event was lost: the capture on it is given back, listed once", async () => {
      const { session, order } = await paidCardOrder()
      const hourAgo = new Date(Date.now() - 3_600_000)
      // Canceled while nothing followed it (the event lost): the capture still on the order, the payment naming none.
      await db()("order").where({ id: order.id }).update({ status: "canceled", canceled_at: new Date() })
      await db()("odeme_payment").where({ session_id: session.id }).update({ order_id: null, updated_at: hourAgo })
      await pollTransfers(getContainer())
      const items = (await attention()).items.filter((i: any) => i.session_id === session.id)
      expect(items).toEqual([expect.objectContaining({ kind: "refund_due", amount: "250.00", order_id: order.id })])
      // The next pass finds nothing more to give back.
      await db()("odeme_payment").where({ session_id: session.id }).update({ order_id: null, updated_at: hourAgo })
      await pollTransfers(getContainer())
      expect((await attention()).items.filter((i: any) => i.session_id === session.id)).toHaveLength(1)
    })

    it("a second tab replaces the session of an order awaiting its transfer, then the IBAN shown is paid: the item names that order", async () => {
      const { session, transfer, order } = await awaitingTransferOrder()
      const replaced = await api.post(
        `/store/payment-collections/${session.payment_collection_id}/payment-sessions`,
        { provider_id: CHECKOUT_PROVIDER, data: {} },
        { ...store.headers, validateStatus: () => true }
      )
      // Medusa 2.21 takes a new session on an ordered cart's collection and deletes the awaiting one.
      expect(replaced.status).toBe(200)
      await waitFor(async () => (await row(session.id)).status === "canceled")
      expect((await row(session.id)).order_id).toBe(order.id)

      await env.emulator.control("POST", `/_control/transfers/${transfer.uuid}/settle`, { result: "successful" })
      const item = await waitFor(async () => (await attention()).items.find((i: any) => i.session_id === session.id && i.code === "late_success"))
      expect(item).toMatchObject({ order_id: order.id, service_uuids: [transfer.uuid] })
    })

    it("an admin cancels an awaiting transfer's order, then the money arrives: never captured, listed as money to give back, the order stays canceled", async () => {
      const { cart, session, transfer, order } = await awaitingTransferOrder()
      expect((await row(session.id)).status).toBe("awaiting_transfer")

      await api.post(`/admin/orders/${order.id}/cancel`, {}, admin.headers)
      await waitFor(async () => (await row(session.id)).status === "canceled")

      // The customer's bank transfer arrives after the cancel; the service's webhook tells the plugin.
      await env.emulator.control("POST", `/_control/transfers/${transfer.uuid}/settle`, { result: "successful" })
      const after = await waitFor(async () => {
        const r = await row(session.id)
        return r.status === "review" ? r : undefined
      })
      expect(after.review_code).toBe("late_success")
      const outcome = await cartOutcome(getContainer(), cart.id)
      expect(outcome.captures).toBe(0)
      const {
        data: { order: canceled },
      } = await api.get(`/admin/orders/${order.id}?fields=status`, admin.headers)
      expect(canceled.status).toBe("canceled")

      const items = (await attention()).items.filter((i: any) => i.session_id === session.id)
      expect(items).toEqual([
        expect.objectContaining({
          code: "late_success",
          amount: expect.stringMatching(/^250(\.00)?$/),
          order_id: order.id,
          service_uuids: [transfer.uuid],
          actions: ["acknowledge"],
        }),
      ])

      // A poll after that changes nothing and captures nothing.
      await db()("odeme_payment").where({ session_id: session.id }).update({ next_check_at: db().fn.now() })
      await pollTransfers(getContainer())
      expect((await cartOutcome(getContainer(), cart.id)).captures).toBe(0)
    })

    it("a second tab still on a canceled order's checkout is handed no form: the order can no longer be paid", async () => {
      const { cart, session, collectionId, order } = await awaitingTransferOrder()
      await api.post(`/admin/orders/${order.id}/cancel`, {}, admin.headers)
      await waitFor(async () => (await row(session.id)).status === "canceled")

      // The second tab picks the card on the cart's collection (Medusa still opens the session) and asks for the form.
      const opened = await api.post(`/store/payment-collections/${collectionId}/payment-sessions`, { provider_id: CHECKOUT_PROVIDER }, store.headers)
      const card = opened.data.payment_collection.payment_sessions.find((s: any) => s.provider_id === CHECKOUT_PROVIDER)
      const refused = await api.post(
        `/store/odeme/payment-sessions/${card.id}/form`,
        { cart_id: cart.id },
        { ...store.headers, validateStatus: () => true }
      )
      expect(refused.status).toBe(400)
      expect(refused.data.message).toContain("[odeme.order_canceled]")
    })

    it("a canceled order's transfer paid with the webhook URL wrong: the poller keeps asking until the transfer expires, finds the money, lists it", async () => {
      const { cart, session, transfer, order } = await awaitingTransferOrder()
      const expired = await awaitingTransferOrder()
      // The merchant breaks the webhook URL after the transfers were created (the service needs one to create them).
      await env.emulator.control("POST", "/_control/config", { webhookUrl: null })
      for (const o of [order, expired.order]) await api.post(`/admin/orders/${o.id}/cancel`, {}, admin.headers)
      await waitFor(async () => (await row(session.id)).status === "canceled" && (await row(expired.session.id)).status === "canceled")
      expect((await row(session.id)).next_check_at).not.toBeNull()

      // One customer pays anyway (the IBAN was on the screen); no webhook comes.
      await env.emulator.control("POST", `/_control/transfers/${transfer.uuid}/settle`, { result: "successful" })
      // The other transfer is past its deadline: asked one last time, then never again.
      await db()("odeme_payment")
        .where({ session_id: expired.session.id })
        .update({ creation_started_at: db().raw("now() - interval '30 days'") })
      await db()("odeme_payment").whereIn("session_id", [session.id, expired.session.id]).update({ next_check_at: db().fn.now() })
      await pollTransfers(getContainer())

      const found = await row(session.id)
      expect([found.status, found.review_code, found.next_check_at]).toEqual(["review", "late_success", null])
      expect((await cartOutcome(getContainer(), cart.id)).captures).toBe(0)
      expect((await attention()).items.filter((i: any) => i.session_id === session.id)).toEqual([
        expect.objectContaining({ code: "late_success", order_id: order.id, service_uuids: [transfer.uuid], actions: ["acknowledge"] }),
      ])
      const gone = await row(expired.session.id)
      expect([gone.status, gone.next_check_at]).toEqual(["canceled", null])
    })

    it("a captured order that is canceled leaves Medusa's refund as a to-do with its amount, until acknowledged", async () => {
      const { session, transfer, order } = await awaitingTransferOrder()
      await env.emulator.control("POST", `/_control/transfers/${transfer.uuid}/settle`, { result: "successful" })
      await waitFor(async () => (await row(session.id)).status === "paid" && (await row(session.id)).order_id === order.id)

      await api.post(`/admin/orders/${order.id}/cancel`, {}, admin.headers)
      const item = await waitFor(async () => (await attention()).items.find((i: any) => i.kind === "refund_due" && i.session_id === session.id))
      expect(item).toMatchObject({ code: "refund_due", amount: "250.00", currency: "TRY", order_id: order.id, actions: ["acknowledge"] })
      expect((await row(session.id)).status).toBe("paid")
      // Asking the service again (Admin's "Ask Odeme now") finds the same payment: Medusa's refund stays the one item.
      expect((await api.post(`/admin/odeme/payments/${session.id}/check`, {}, admin.headers)).status).toBe(200)
      expect((await attention()).items.filter((i: any) => i.session_id === session.id).map((i: any) => i.kind)).toEqual(["refund_due"])
      expect((await row(session.id)).status).toBe("paid")

      const ack = await api.post(`/admin/odeme/refunds/${item.refund_id}/acknowledge`, {}, admin.headers)
      expect(ack.data.refund.acknowledged_at).toEqual(expect.any(String))
      expect((await attention()).items.filter((i: any) => i.session_id === session.id)).toEqual([])
    })

    it("a session created with another session's id in its data is refused, and the victim's payment is untouched", async () => {
      const victim = await awaitingTransferOrder()
      const before = await row(victim.session.id)

      const { collectionId } = await cartWithCollection(api, store, { email: "x@example.com" })
      for (const provider of [TRANSFER_PROVIDER, CHECKOUT_PROVIDER]) {
        const res = await api.post(
          `/store/payment-collections/${collectionId}/payment-sessions`,
          { provider_id: provider, data: { session_id: victim.session.id } },
          { ...store.headers, validateStatus: () => true }
        )
        expect(res.status).toBe(400)
        expect(res.data.code ?? res.data.message).toMatch(/odeme\.invalid_session_data/)
      }
      expect(await row(victim.session.id)).toMatchObject({ status: "awaiting_transfer", version: before.version })
    })

    it("session data keeps only what a storefront may send: a made-up manual_refunds or state never reaches the payment Admin reads", async () => {
      const { collectionId } = await cartWithCollection(api, store, { email: "x@example.com" })
      const made = { manual_refunds: [{ amount: "4999.00" }], state: "paid", iban: "TR000000000000000000000000", charged_amount: "1.00" }
      // Medusa's store route, and its admin route that does the same.
      for (const [route, headers] of [
        ["store", store.headers],
        ["admin", admin.headers],
      ] as const) {
        for (const [provider, own] of [
          [CHECKOUT_PROVIDER, { return_url: "http://localhost:8000/checkout/return" }],
          [TRANSFER_PROVIDER, { customer_name: "Ayşe Yılmaz" }],
        ] as const) {
          const res = await api.post(
            `/${route}/payment-collections/${collectionId}/payment-sessions`,
            { provider_id: provider, data: { ...made, ...own } },
            headers
          )
          const session = res.data.payment_collection.payment_sessions.find((s: any) => s.provider_id === provider)
          expect(session.data).toMatchObject({ ...own, state: "pending" })
          for (const key of ["manual_refunds", "iban", "charged_amount"]) expect(session.data[key]).toBeUndefined()
          // The customer's address comes from the customer's request only, never from an admin's.
          expect(session.data.client_ip === undefined).toBe(route === "admin")
        }
        const named = await api.post(
          `/${route}/payment-collections/${collectionId}/payment-sessions`,
          { provider_id: CHECKOUT_PROVIDER, data: { session_id: "payses_01SOMEONEELSE00000000000" } },
          { ...headers, validateStatus: () => true }
        )
        expect(named.status).toBe(400)
      }
    })

    it("client_ip is the customer's address as a trusted storefront server reports it, and the service receives exactly that", async () => {
      const { session, transfer } = await awaitingTransferOrder({ "x-odeme-client-ip": "198.51.100.7" })
      expect(session.data.client_ip).toBe("198.51.100.7")
      expect(transfer.transfer.client_ip).toBe("198.51.100.7")

      // Not an address: the connecting address stands, never a made-up one.
      const other = await awaitingTransferOrder({ "x-odeme-client-ip": "not-an-ip" })
      expect(other.transfer.transfer.client_ip).toMatch(/^(127\.0\.0\.1|::1)$/)
    })

    it("webhooks that never arrive: the 'paid' return becomes an unconfirmed_return item and a health warning; the late delivery pays once and clears it", async () => {
      await env.emulator.control("POST", "/_control/config", { webhookUrl: null })
      const { cart, session } = await cartWithSession(api, store, CHECKOUT_PROVIDER, {})
      const {
        data: { form },
      } = await api.post(`/store/odeme/payment-sessions/${session.id}/form`, { cart_id: cart.id }, store.headers)
      const page = await openCheckout(form)
      const successUrl = await payByCard(page, "approve")
      const back = await follow(successUrl)
      expect(back.status).toBe(303)
      expect(back.location).toContain("status=pending")

      const item = await waitFor(
        async () => (await attention()).items.find((i: any) => i.kind === "unconfirmed_return" && i.session_id === session.id),
        30_000
      )
      expect(item).toMatchObject({ code: "unconfirmed_return", amount: "250.00", actions: ["check", "resolve"] })
      const { data: settings } = await api.get("/admin/odeme/settings", admin.headers)
      expect(settings.webhook_health).toMatchObject({ unconfirmed_returns: 1, last_webhook_at: null, webhooks_24h: 0 })
      expect(settings.warnings).toEqual(expect.arrayContaining([expect.objectContaining({ code: "webhooks_not_arriving", severity: "error" })]))
      // Ask Odeme now has nothing to verify (a card's return names no service payment) and says so, not "probably did not pay".
      const asked = await api.post(`/admin/odeme/payments/${session.id}/check`, {}, admin.headers)
      expect(asked.data).toMatchObject({ code: "unverifiable_return", state: "pending", changed: false })

      // The merchant fixes the URL; the service delivers the notification again.
      await env.emulator.control("POST", "/_control/config", { webhookUrl: `${env.backendUrl}/odeme/webhook` })
      const hooks = (await env.emulator.control("GET", "/_control/webhooks")).result
      await env.emulator.control("POST", `/_control/webhooks/${hooks[hooks.length - 1].id}/resend`)
      await waitFor(async () => (await cartOutcome(getContainer(), cart.id)).captures === 1)
      expect((await cartOutcome(getContainer(), cart.id)).captures).toBe(1)
      expect((await attention()).items.filter((i: any) => i.session_id === session.id)).toEqual([])
    })

    it("a return without the session's proof, as anyone who knows a session id can send, never says the customer came back paid", async () => {
      const { session } = await cartWithSession(api, store, CHECKOUT_PROVIDER, {})
      const forged = await follow(`${env.backendUrl}/odeme/return/${session.id}/success?status=success&uuid=${randomUUID()}&hash=forged`)
      expect(forged.status).toBe(303)
      const db = getContainer().resolve(ContainerRegistrationKeys.PG_CONNECTION)
      // Stored (verify is asked, and refuses it), and older than the wait for a webhook.
      const stored = await waitFor(async () => (await db("odeme_notification").where({ session_id: session.id, source: "return" }))[0])
      expect(stored).toMatchObject({ status: "successful" })
      await db("odeme_notification")
        .where({ id: stored.id })
        .update({ created_at: new Date(Date.now() - 3600_000) })

      expect((await attention()).items.filter((i: any) => i.session_id === session.id)).toEqual([])
      const asked = await api.post(`/admin/odeme/payments/${session.id}/check`, {}, admin.headers)
      expect(asked.data.code).not.toBe("unverifiable_return")
      const { data: settings } = await api.get("/admin/odeme/settings", admin.headers)
      expect(settings.webhook_health.unconfirmed_returns).toBe(0)
    })

    it("webhooks that never arrive, then the customer changes the cart's payment: the unconfirmed return stays listed; the late delivery is money to give back", async () => {
      await env.emulator.control("POST", "/_control/config", { webhookUrl: null })
      const { cart, session } = await cartWithSession(api, store, CHECKOUT_PROVIDER, {})
      const {
        data: { form },
      } = await api.post(`/store/odeme/payment-sessions/${session.id}/form`, { cart_id: cart.id }, store.headers)
      const back = await follow(await payByCard(await openCheckout(form), "approve"))
      expect(back.location).toContain("status=pending")

      // Charged, but nothing confirmed it: the customer starts another payment, and Medusa deletes the first session.
      const { data } = await api.post(
        `/store/payment-collections/${session.payment_collection_id}/payment-sessions`,
        { provider_id: CHECKOUT_PROVIDER, data: {} },
        store.headers
      )
      expect(data.payment_collection.payment_sessions.map((s: any) => s.id)).not.toContain(session.id)
      await waitFor(async () => (await row(session.id))?.status === "canceled")

      const item = await waitFor(
        async () => (await attention()).items.find((i: any) => i.kind === "unconfirmed_return" && i.session_id === session.id),
        30_000
      )
      expect(item).toMatchObject({ code: "unconfirmed_return", amount: "250.00" })
      const { data: settings } = await api.get("/admin/odeme/settings", admin.headers)
      expect(settings.warnings).toEqual(expect.arrayContaining([expect.objectContaining({ code: "webhooks_not_arriving" })]))

      // The merchant finds nothing in the merchant panel and marks it resolved: the item and the warning go.
      const resolved = await api.post(`/admin/odeme/payments/${session.id}/resolve`, { note: "Panelde bu ödeme yok" }, admin.headers)
      expect(resolved.status).toBe(200)
      expect((await attention()).items.filter((i: any) => i.session_id === session.id)).toEqual([])
      const { data: after } = await api.get("/admin/odeme/settings", admin.headers)
      expect(after.warnings.map((w: any) => w.code)).not.toContain("webhooks_not_arriving")

      // The merchant fixes the URL; the service delivers again: the first payment has no session to pay, so it is listed to give back
      // (the resolution held for what the person saw, not for a payment that turns up later).
      await env.emulator.control("POST", "/_control/config", { webhookUrl: `${env.backendUrl}/odeme/webhook` })
      const hooks = (await env.emulator.control("GET", "/_control/webhooks")).result as any[]
      await env.emulator.control("POST", `/_control/webhooks/${hooks.filter((h) => h.body?.order_id === serviceOrderIdOf(session)).pop().id}/resend`)
      const late = await waitFor(async () => (await attention()).items.find((i: any) => i.session_id === session.id && i.charge_id), 30_000)
      expect(late).toMatchObject({ kind: "review", code: "late_success", currency: "TRY", actions: ["acknowledge"] })
      expect(Number(late.amount)).toBe(250) // the charge as the service reported it
      expect((await attention()).items.filter((i: any) => i.session_id === session.id && i.kind === "unconfirmed_return")).toEqual([])
      expect((await cartOutcome(getContainer(), cart.id)).captures).toBe(0)
    })

    it("an order refunded in part, then a second tab pays the full amount again: refused, and paid anyway it is listed to give back, never a second capture", async () => {
      const { cart, session, order } = await paidCardOrder()
      // The merchant refunds part of it (an item returned).
      const query = getContainer().resolve(ContainerRegistrationKeys.QUERY)
      const { data: payments } = await query.graph({ entity: "payment", fields: ["id"], filters: { payment_session_id: session.id } })
      expect((await api.post(`/admin/payments/${payments[0].id}/refund`, { amount: 100 }, admin.headers)).status).toBe(200)

      const again = await api.post(
        `/store/payment-collections/${session.payment_collection_id}/payment-sessions`,
        { provider_id: CHECKOUT_PROVIDER, data: {} },
        store.headers
      )
      const second = again.data.payment_collection.payment_sessions.find((s: any) => s.id !== session.id)
      const refused = await api.post(
        `/store/odeme/payment-sessions/${second.id}/form`,
        { cart_id: cart.id },
        { ...store.headers, validateStatus: () => true }
      )
      expect(refused.data.message).toMatch(/\[odeme\.already_paid\]/)
      await payByCard(await openCheckout(second.data.form), "approve")
      const item = await waitFor(async () => (await attention()).items.find((i: any) => i.session_id === second.id))
      expect(item).toMatchObject({ kind: "review", code: "already_paid", order_id: order.id })
      expect(await cartOutcome(getContainer(), cart.id)).toMatchObject({ orders: 1, captures: 1 })
    })

    it("a second tab pays the cart the first tab already paid: its fresh form is refused; the form it has is paid anyway: one capture on the order, the second payment listed to give back, the first stays paid", async () => {
      const { cart, session, order } = await paidCardOrder()

      // The second tab, still on the payment step, starts another payment: Medusa deletes the paid session, not its capture.
      const again = await api.post(
        `/store/payment-collections/${session.payment_collection_id}/payment-sessions`,
        { provider_id: CHECKOUT_PROVIDER, data: {} },
        store.headers
      )
      const second = again.data.payment_collection.payment_sessions.find((s: any) => s.id !== session.id)
      expect(again.data.payment_collection.payment_sessions.map((s: any) => s.id)).not.toContain(session.id)
      // The first payment is confirmed again (a poll, Check now): still the order's capture, nothing to give back.
      const first = await row(session.id)
      const confirmed = await applyServiceAnswer(
        getContainer(),
        session.id,
        { kind: "paid", uuid: first.service_uuid, amount: "250.00", currency: "TRY" },
        { act: true }
      )
      expect(confirmed.payment.status).toBe("paid")

      // The plugin's fresh form is refused, in the customer's words; the form the session's data carries is paid anyway.
      const refused = await api.post(
        `/store/odeme/payment-sessions/${second.id}/form`,
        { cart_id: cart.id },
        { ...store.headers, validateStatus: () => true }
      )
      expect(refused.status).toBe(400)
      expect(refused.data.message).toMatch(/\[odeme\.already_paid\]/)
      await payByCard(await openCheckout(second.data.form), "approve")
      const item = await waitFor(async () => (await attention()).items.find((i: any) => i.session_id === second.id))
      expect(item).toMatchObject({ kind: "review", code: "already_paid", currency: "TRY", order_id: order.id, actions: ["acknowledge"] })
      expect(Number(item.amount)).toBe(250) // the charge as the service reported it
      expect(await row(second.id)).toMatchObject({ status: "review", review_code: "already_paid" })
      expect((await attention()).items.filter((i: any) => i.session_id === session.id)).toEqual([])
      expect((await row(session.id)).status).toBe("paid")
      const outcome = await cartOutcome(getContainer(), cart.id)
      expect(outcome).toMatchObject({ orders: 1, captures: 1 })
    })
  },
})
