/**
 * Balance payment links: an order edited in Admin owes money, Admin's "Copy
 * payment link" gives `{storefront}/payment-collection/{id}?order_id={order}`,
 * and the storefront pays that collection (no cart) with either provider.
 * Done when the order owes 0 with one capture per collection.
 */
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { pollTransfers } from "../../../src/workflows/poller/poll-transfers"
import { createAdmin, type AdminSession } from "../../utils/admin"
import { follow, openCheckout, payByCard, waitFor } from "../../utils/checkout-driver"
import { STOREFRONT } from "../../utils/checkout-suite"
import { resetEmulator, type SuiteContext } from "../../utils/environment"
import { CHECKOUT_PROVIDER, TRANSFER_PROVIDER, cartWithSession, completeCart, seedStore, serviceOrderIdOf, type SeededStore } from "../../utils/store"

export function balanceSuite({ env, api, getContainer }: SuiteContext) {
  describe("balance payment links", () => {
    let store: SeededStore
    let admin: AdminSession

    beforeEach(async () => {
      await resetEmulator(env)
      store = await seedStore(getContainer(), { providers: [CHECKOUT_PROVIDER, TRANSFER_PROVIDER] })
      admin = await createAdmin(api, getContainer())
    })

    const asAdmin = {
      get: (url: string) => api.get(url, { ...admin.headers, validateStatus: () => true }),
      post: (url: string, body: unknown = {}) => api.post(url, body, { ...admin.headers, validateStatus: () => true }),
    }
    const store_ = (url: string, body: unknown) => api.post(url, body, { ...store.headers, validateStatus: () => true })
    const storeGet = (url: string) => api.get(url, { ...store.headers, validateStatus: () => true })

    async function firstBankId(): Promise<number> {
      const { data } = await api.get("/store/odeme/banks", store.headers)
      return data.bank_groups[0].accounts[0].bank_id
    }

    /** An order placed and paid (a sandbox transfer approved at once). */
    async function paidOrder(): Promise<string> {
      const { cart } = await cartWithSession(api, store, TRANSFER_PROVIDER, { bank_id: await firstBankId(), customer_name: "Ayşe Yılmaz" })
      const res = await completeCart(api, store, cart.id)
      expect(res.data.type).toBe("order")
      return res.data.order.id
    }

    /** Admin's order edit adding one more item, confirmed: the order now owes its price. Returns the new collection. */
    async function editAddingAnItem(orderId: string) {
      const edit = await asAdmin.post("/admin/order-edits", { order_id: orderId })
      expect(edit.status).toBe(200)
      const items = await asAdmin.post(`/admin/order-edits/${orderId}/items`, { items: [{ variant_id: store.variantId, quantity: 1 }] })
      expect(items.status).toBe(200)
      expect((await asAdmin.post(`/admin/order-edits/${orderId}/request`)).status).toBe(200)
      const confirmed = await asAdmin.post(`/admin/order-edits/${orderId}/confirm`)
      expect(confirmed.status).toBe(200)
      const order = await orderWithCollections(orderId)
      const open = order.payment_collections.filter((pc: any) => pc.status === "not_paid")
      expect(open).toHaveLength(1)
      expect(Number(order.summary.pending_difference)).toBe(250)
      return open[0] as { id: string; amount: number }
    }

    async function orderWithCollections(orderId: string) {
      const res = await asAdmin.get(
        `/admin/orders/${orderId}?fields=id,*summary,*transactions,*payment_collections,*payment_collections.payments,*payment_collections.payments.captures`
      )
      expect(res.status).toBe(200)
      return res.data.order
    }

    /** What the storefront's payment-link page does first: a session of the chosen provider on the collection. */
    async function balanceSession(collectionId: string, providerId: string, data: Record<string, unknown> = {}) {
      const res = await store_(`/store/payment-collections/${collectionId}/payment-sessions`, { provider_id: providerId, data })
      expect(res.status).toBe(200)
      return res.data.payment_collection.payment_sessions.find((s: any) => s.provider_id === providerId)
    }

    /** A balance transfer started on the payment link is refused with `code`, and no transfer is created at the service. */
    async function expectTransferRefused(collectionId: string, proof: Record<string, string>, code: string) {
      const transfer = await balanceSession(collectionId, TRANSFER_PROVIDER, {
        bank_id: await firstBankId(),
        customer_name: "Ayşe Yılmaz",
        sandbox_result: "pending",
      })
      const refused = await store_(`/store/odeme/payment-sessions/${transfer.id}/authorize`, proof)
      expect(refused.status).toBe(400)
      expect(refused.data.message).toContain(`[odeme.${code}]`)
      expect((await env.emulator.control("GET", "/_control/transfers")).result.filter((t: any) => t.order_id === serviceOrderIdOf(transfer))).toEqual(
        []
      )
    }

    /** The form a session's data carries, paid on the service's page anyway: its row once in review, and its items. */
    async function payAnywayAndReview(session: { id: string; data: { form: any } }) {
      await payByCard(await openCheckout(session.data.form), "approve")
      const db = getContainer().resolve(ContainerRegistrationKeys.PG_CONNECTION)
      const row = await waitFor(async () => {
        const r = await db("odeme_payment").where({ session_id: session.id }).first()
        return r?.status === "review" ? r : undefined
      })
      const { data: attention } = await asAdmin.get("/admin/odeme/attention")
      return { row, items: attention.items.filter((i: any) => i.session_id === session.id) }
    }

    /** Paid and nothing more: one capture per collection, each on the order's transactions once (twice reads as overpaid). */
    async function expectSettled(orderId: string) {
      const order = await waitFor(async () => {
        const o = await orderWithCollections(orderId)
        return Number(o.summary.pending_difference) <= 0 ? o : undefined
      })
      expect(Number(order.summary.pending_difference)).toBe(0)
      for (const pc of order.payment_collections) {
        expect(pc.status).toBe("completed")
        expect(pc.payments).toHaveLength(1)
        expect(pc.payments[0].captures).toHaveLength(1)
        const captureId = pc.payments[0].captures[0].id
        expect(order.transactions.filter((t: any) => t.reference === "capture" && t.reference_id === captureId)).toHaveLength(1)
      }
      return order
    }

    it("Quick Checkout pays an edited order's balance: the form, the return to the payment-link page, one capture per collection", async () => {
      const orderId = await paidOrder()
      const collection = await editAddingAnItem(orderId)
      const session = await balanceSession(collection.id, CHECKOUT_PROVIDER)
      expect(session.data.amount).toBe("250.00")

      const proof = { payment_collection_id: collection.id, order_id: orderId }
      const form = await store_(`/store/odeme/payment-sessions/${session.id}/form`, proof)
      expect(form.status).toBe(200)
      // The shopper reads the order's number on the service's page, never a session id.
      const {
        data: { order: placed },
      } = await asAdmin.get(`/admin/orders/${orderId}?fields=display_id`)
      expect(form.data.form.fields.description).toBe(`Sipariş ödemesi #${placed.display_id}`)
      const successUrl = await payByCard(await openCheckout(form.data.form), "approve")
      const back = await follow(successUrl)
      expect(back.status).toBe(303)
      const target = new URL(back.location!)
      expect(target.origin + target.pathname).toBe(`${STOREFRONT}/payment-collection/${collection.id}`)
      expect(Object.fromEntries(target.searchParams)).toEqual({ order_id: orderId, status: "paid", session_id: session.id })
      // Someone who knows only the session id opens its return address: neither the balance's ids (the proof
      // its status and form routes ask for) nor where the payment stands, and nothing recorded.
      const db = getContainer().resolve(ContainerRegistrationKeys.PG_CONNECTION)
      const returns = async () => (await db("odeme_notification").where({ session_id: session.id, source: "return" })).length
      const recorded = await returns()
      for (const address of [
        `${env.backendUrl}/odeme/return/${session.id}/success?status=success`,
        `${env.backendUrl}/odeme/return/${session.id}/success/${"A".repeat(22)}`,
      ]) {
        const visit = await follow(address)
        expect(visit.status).toBe(303)
        expect(visit.location).toBe(`${STOREFRONT}/checkout/return?status=pending&session_id=${session.id}`)
      }
      expect(await returns()).toBe(recorded)

      const order = await expectSettled(orderId)
      expect(order.payment_collections).toHaveLength(2)
      // The Admin widget's route: each collection of the order, the checkout's and the balance, with its state.
      const widget = await asAdmin.get(`/admin/odeme/orders/${orderId}/payment`)
      expect(widget.data.collections).toEqual([
        expect.objectContaining({ kind: "original", status: "completed", currency: "try" }),
        expect.objectContaining({ id: collection.id, kind: "balance", status: "completed", amount: "250", session_ids: [session.id] }),
      ])
      expect(widget.data.payments.find((p: any) => p.session_id === session.id)).toEqual(
        expect.objectContaining({ payment_collection_id: collection.id, state: "paid" })
      )
      const status = await storeGet(`/store/odeme/payment-sessions/${session.id}?payment_collection_id=${collection.id}&order_id=${orderId}`)
      expect(status.data.payment_session).toEqual(
        expect.objectContaining({ status: "paid", payment_collection_id: collection.id, order_id: orderId })
      )
    })

    it("a bank transfer pays the balance: started without a cart, IBAN shown, polled, captured onto the same order", async () => {
      const orderId = await paidOrder()
      const collection = await editAddingAnItem(orderId)
      const session = await balanceSession(collection.id, TRANSFER_PROVIDER, {
        bank_id: await firstBankId(),
        customer_name: "Ayşe Yılmaz",
        sandbox_result: "pending",
      })
      const proof = { payment_collection_id: collection.id, order_id: orderId }
      const started = await store_(`/store/odeme/payment-sessions/${session.id}/authorize`, proof)
      expect(started.status).toBe(200)
      expect(started.data.payment_session.session_status).toBe("pending_authorization")
      // A reload starts nothing new.
      expect((await store_(`/store/odeme/payment-sessions/${session.id}/authorize`, proof)).status).toBe(200)
      const transfers = (await env.emulator.control("GET", "/_control/transfers")).result.filter((t: any) => t.order_id === serviceOrderIdOf(session))
      expect(transfers).toHaveLength(1)

      const waiting = await storeGet(`/store/odeme/payment-sessions/${session.id}?payment_collection_id=${collection.id}&order_id=${orderId}`)
      expect(waiting.status).toBe(200)
      expect(waiting.data.payment_session).toEqual(
        expect.objectContaining({
          state: "awaiting_transfer",
          status: "pending",
          session_status: "pending_authorization",
          amount: "250.00",
          iban: expect.stringMatching(/^TR\d{24}$/),
          order_id: orderId,
          // The deadline the page shows: transfer.expiryHours after the transfer was created.
          expires_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        })
      )

      await env.emulator.control("POST", `/_control/transfers/${transfers[0].uuid}/settle`, { result: "successful" })
      const db = getContainer().resolve(ContainerRegistrationKeys.PG_CONNECTION)
      await db("odeme_payment").where({ session_id: session.id }).update({ next_check_at: db.fn.now() })
      expect((await pollTransfers(getContainer())).paid).toBe(1)
      await expectSettled(orderId)
    })

    it("a bank transfer the service approves at once is captured onto the order once when it is started, though its webhook races the start", async () => {
      // The emulator announces a sandbox approval the moment the transfer is created: the webhook's settle
      // and the route's run side by side. Before both took the settle lock, about every second try put the
      // capture on the order twice; a few tries in a row make a regression show.
      for (let i = 0; i < 4; i++) {
        const orderId = await paidOrder()
        const collection = await editAddingAnItem(orderId)
        const session = await balanceSession(collection.id, TRANSFER_PROVIDER, { bank_id: await firstBankId(), customer_name: "Ayşe Yılmaz" })
        const started = await store_(`/store/odeme/payment-sessions/${session.id}/authorize`, {
          payment_collection_id: collection.id,
          order_id: orderId,
        })
        expect(started.status).toBe(200)
        expect(started.data.payment_session.session_status).toBe("authorized")
        await expectSettled(orderId)
      }
    })

    it("a balance transfer the payment module captured but nothing put on the order (the start stopped halfway) is put there by the poller", async () => {
      const orderId = await paidOrder()
      const collection = await editAddingAnItem(orderId)
      const session = await balanceSession(collection.id, TRANSFER_PROVIDER, { bank_id: await firstBankId(), customer_name: "Ayşe Yılmaz" })
      // No webhook reaches the store (a wrong URL), so only the poller can finish it.
      await env.emulator.control("POST", "/_control/config", { webhookUrl: `${env.backendUrl}/not-the-webhook` })
      // What the start route does before it settles: the provider answers "captured" and the payment module
      // captures by itself, but a capture alone is not on the order's transactions.
      const payment = await getContainer().resolve(Modules.PAYMENT).authorizePaymentSession(session.id, {})
      expect(payment?.captured_at).toBeTruthy()
      expect(Number((await orderWithCollections(orderId)).summary.pending_difference)).toBe(250)

      const db = getContainer().resolve(ContainerRegistrationKeys.PG_CONNECTION)
      await db("odeme_payment").where({ session_id: session.id }).update({ next_check_at: db.fn.now() })
      await pollTransfers(getContainer())
      await expectSettled(orderId)
    })

    it("a balance edited again after its session was opened: no form is signed for the old amount; a new session asks what is owed", async () => {
      const orderId = await paidOrder()
      const collection = await editAddingAnItem(orderId)
      const card = await balanceSession(collection.id, CHECKOUT_PROVIDER)
      const proof = { payment_collection_id: collection.id, order_id: orderId }
      expect((await store_(`/store/odeme/payment-sessions/${card.id}/form`, proof)).status).toBe(200)

      // The merchant adds one more item: the balance now asks 500.00.
      expect((await asAdmin.post("/admin/order-edits", { order_id: orderId })).status).toBe(200)
      expect((await asAdmin.post(`/admin/order-edits/${orderId}/items`, { items: [{ variant_id: store.variantId, quantity: 1 }] })).status).toBe(200)
      expect((await asAdmin.post(`/admin/order-edits/${orderId}/request`)).status).toBe(200)
      expect((await asAdmin.post(`/admin/order-edits/${orderId}/confirm`)).status).toBe(200)
      const order = await orderWithCollections(orderId)
      expect(order.payment_collections.find((pc: any) => pc.id === collection.id).amount).toBe(500)

      // Neither a form nor a transfer for the old 250.00: the storefront opens a new session for what is owed.
      const stale = await store_(`/store/odeme/payment-sessions/${card.id}/form`, proof)
      expect(stale.status).toBe(400)
      expect(stale.data.code ?? stale.data.message).toMatch(/odeme\.amount_changed/)
      const transfer = await balanceSession(collection.id, TRANSFER_PROVIDER, {
        bank_id: await firstBankId(),
        customer_name: "Ayşe Yılmaz",
        sandbox_result: "pending",
      })
      expect(transfer.amount).toBe(500)
      expect((await store_(`/store/odeme/payment-sessions/${transfer.id}/authorize`, proof)).status).toBe(200)
      const [created] = (await env.emulator.control("GET", "/_control/transfers")).result.filter(
        (t: any) => t.order_id === serviceOrderIdOf(transfer)
      )
      expect(created.amount).toBe("500.00")
    })

    it("a balance the order no longer owes (a later edit took off more than it asked): nothing is offered, and money paid anyway is listed to give back, never captured", async () => {
      const orderId = await paidOrder()
      const collection = await editAddingAnItem(orderId)
      const proof = { payment_collection_id: collection.id, order_id: orderId }
      const checkout = await balanceSession(collection.id, CHECKOUT_PROVIDER)

      // The merchant then takes every item off: the order owes less than nothing, and Medusa keeps the open
      // balance asking 250.00 (it updates an open balance only while what is owed is not below zero).
      const { data } = await asAdmin.get(`/admin/orders/${orderId}?fields=id,*items`)
      expect((await asAdmin.post("/admin/order-edits", { order_id: orderId })).status).toBe(200)
      for (const item of data.order.items) {
        expect((await asAdmin.post(`/admin/order-edits/${orderId}/items/item/${item.id}`, { quantity: 0 })).status).toBe(200)
      }
      expect((await asAdmin.post(`/admin/order-edits/${orderId}/request`)).status).toBe(200)
      expect((await asAdmin.post(`/admin/order-edits/${orderId}/confirm`)).status).toBe(200)
      const edited = await orderWithCollections(orderId)
      expect(Number(edited.summary.pending_difference)).toBeLessThan(0)
      expect(edited.payment_collections.find((pc: any) => pc.id === collection.id)).toMatchObject({ status: "not_paid", amount: 250 })

      const refusedForm = await store_(`/store/odeme/payment-sessions/${checkout.id}/form`, proof)
      expect(refusedForm.status).toBe(400)
      expect(refusedForm.data.message).toMatch(/\[odeme\.already_paid\]/)

      // The form the session's data carries from before the edit is paid anyway: verified, never captured, listed to give back.
      const { row, items } = await payAnywayAndReview(checkout)
      expect(row).toMatchObject({ review_code: "already_paid" })
      expect(items).toEqual([expect.objectContaining({ kind: "review", code: "already_paid" })])

      await expectTransferRefused(collection.id, proof, "already_paid")

      const after = await orderWithCollections(orderId)
      const balance = after.payment_collections.find((pc: any) => pc.id === collection.id)
      expect((balance.payments ?? []).flatMap((p: any) => p.captures ?? [])).toEqual([])
    })

    it("a balance lowered by a later edit but still owed: the old session is refused as changed (reload), never as already paid", async () => {
      const orderId = await paidOrder()
      // Two more items: the balance asks 500.00, and a session is opened for it.
      expect((await asAdmin.post("/admin/order-edits", { order_id: orderId })).status).toBe(200)
      expect((await asAdmin.post(`/admin/order-edits/${orderId}/items`, { items: [{ variant_id: store.variantId, quantity: 2 }] })).status).toBe(200)
      expect((await asAdmin.post(`/admin/order-edits/${orderId}/request`)).status).toBe(200)
      expect((await asAdmin.post(`/admin/order-edits/${orderId}/confirm`)).status).toBe(200)
      const before = await orderWithCollections(orderId)
      const collection = before.payment_collections.find((pc: any) => pc.status === "not_paid")
      expect(collection.amount).toBe(500)
      const card = await balanceSession(collection.id, CHECKOUT_PROVIDER)

      // One of them is taken off again: the order still owes 250.00, and Medusa lowers the balance to that.
      const { data } = await asAdmin.get(`/admin/orders/${orderId}?fields=id,*items`)
      const added = data.order.items.find((i: any) => i.quantity === 2)
      expect((await asAdmin.post("/admin/order-edits", { order_id: orderId })).status).toBe(200)
      expect((await asAdmin.post(`/admin/order-edits/${orderId}/items/item/${added.id}`, { quantity: 1 })).status).toBe(200)
      expect((await asAdmin.post(`/admin/order-edits/${orderId}/request`)).status).toBe(200)
      expect((await asAdmin.post(`/admin/order-edits/${orderId}/confirm`)).status).toBe(200)
      const after = await orderWithCollections(orderId)
      expect(Number(after.summary.pending_difference)).toBe(250)
      expect(after.payment_collections.find((pc: any) => pc.id === collection.id).amount).toBe(250)

      const stale = await store_(`/store/odeme/payment-sessions/${card.id}/form`, { payment_collection_id: collection.id, order_id: orderId })
      expect(stale.status).toBe(400)
      expect(stale.data.message).toMatch(/\[odeme\.amount_changed\]/)
    })

    it("a balance paid with a form signed before a later edit raised it: the payment is captured, and the rest gets a payment collection of its own", async () => {
      const orderId = await paidOrder()
      const collection = await editAddingAnItem(orderId)
      const card = await balanceSession(collection.id, CHECKOUT_PROVIDER)

      // The merchant adds one more item: the balance now asks 500.00, the session's form still 250.00.
      expect((await asAdmin.post("/admin/order-edits", { order_id: orderId })).status).toBe(200)
      expect((await asAdmin.post(`/admin/order-edits/${orderId}/items`, { items: [{ variant_id: store.variantId, quantity: 1 }] })).status).toBe(200)
      expect((await asAdmin.post(`/admin/order-edits/${orderId}/request`)).status).toBe(200)
      expect((await asAdmin.post(`/admin/order-edits/${orderId}/confirm`)).status).toBe(200)

      await payByCard(await openCheckout(card.data.form), "approve")
      const order = await waitFor(async () => {
        const o = await orderWithCollections(orderId)
        // Both of Medusa's steps done: the new collection is created before the old one is closed.
        const closed = o.payment_collections.some((pc: any) => pc.id === collection.id && pc.status === "partially_captured")
        return closed && o.payment_collections.some((pc: any) => pc.id !== collection.id && pc.status === "not_paid") ? o : undefined
      })
      expect(Number(order.summary.pending_difference)).toBe(250)
      const old = order.payment_collections.find((pc: any) => pc.id === collection.id)
      expect(old.status).toBe("partially_captured")
      expect(old.payments.flatMap((p: any) => p.captures ?? [])).toHaveLength(1)
      const rest = order.payment_collections.filter((pc: any) => pc.status === "not_paid")
      expect(rest).toHaveLength(1)
      expect(rest[0].amount).toBe(250)

      // Settled again (Ask Odeme now verifies its notification once more): the new collection is left as it is.
      expect((await asAdmin.post(`/admin/odeme/payments/${card.id}/check`, {})).status).toBe(200)
      const again = await orderWithCollections(orderId)
      expect(
        again.payment_collections
          .filter((pc: any) => pc.status !== "completed")
          .map((pc: any) => [pc.id, pc.status])
          .sort()
      ).toEqual(
        [
          [collection.id, "partially_captured"],
          [rest[0].id, "not_paid"],
        ].sort()
      )
    })

    it("a balance's session is read and re-signed only with its collection and order, never with a session id alone", async () => {
      const orderId = await paidOrder()
      const other = await paidOrder()
      const collection = await editAddingAnItem(orderId)
      const session = await balanceSession(collection.id, CHECKOUT_PROVIDER)
      const base = `/store/odeme/payment-sessions/${session.id}`

      expect((await storeGet(base)).status).toBe(400)
      expect((await storeGet(`${base}?order_id=${orderId}`)).status).toBe(400)
      const notYours = await storeGet(`${base}?payment_collection_id=${collection.id}&order_id=${other}`)
      expect(notYours.status).toBe(404)
      // What the shopper may read: a code the storefront translates, and no internal id.
      expect(notYours.data.code ?? notYours.data.message).toMatch(/odeme\.session_unknown/)
      expect(notYours.data.message).not.toContain(session.id)
      expect((await storeGet(`${base}?payment_collection_id=pay_col_nope&order_id=${orderId}`)).status).toBe(404)
      expect((await store_(`${base}/form`, { payment_collection_id: collection.id, order_id: other })).status).toBe(404)
      expect((await store_(`${base}/authorize`, { payment_collection_id: collection.id, order_id: other })).status).toBe(404)
      // Not a transfer: nothing to start.
      const notATransfer = await store_(`${base}/authorize`, { payment_collection_id: collection.id, order_id: orderId })
      expect(notATransfer.status).toBe(400)
      expect(notATransfer.data.code ?? notATransfer.data.message).toMatch(/odeme\.invalid_session_data/)

      // A checkout's session is not reachable through an order's proof.
      const { cart, session: cartSession, collectionId } = await cartWithSession(api, store, CHECKOUT_PROVIDER, {})
      expect(
        (await storeGet(`/store/odeme/payment-sessions/${cartSession.id}?payment_collection_id=${collectionId}&order_id=${orderId}`)).status
      ).toBe(404)
      expect((await storeGet(`/store/odeme/payment-sessions/${cartSession.id}?cart_id=${cart.id}`)).status).toBe(200)
    })

    it("an order canceled after its edit: the balance link starts no payment, and money paid anyway on a session opened afterwards is listed to give back, never captured", async () => {
      const orderId = await paidOrder()
      const collection = await editAddingAnItem(orderId)
      expect((await asAdmin.post(`/admin/orders/${orderId}/cancel`)).status).toBe(200)
      const proof = { payment_collection_id: collection.id, order_id: orderId }

      // Medusa still opens sessions on the canceled order's collection (and gives that collection a live status again).
      await expectTransferRefused(collection.id, proof, "order_canceled")

      const checkout = await balanceSession(collection.id, CHECKOUT_PROVIDER)
      const refusedForm = await store_(`/store/odeme/payment-sessions/${checkout.id}/form`, proof)
      expect(refusedForm.status).toBe(400)
      expect(refusedForm.data.message).toMatch(/\[odeme\.order_canceled\]/)

      // The form the session's data already carries is paid anyway: verified, but the order is canceled.
      const { row, items } = await payAnywayAndReview(checkout)
      expect(row).toMatchObject({ review_code: "late_success", order_id: orderId })
      expect(items).toEqual([expect.objectContaining({ kind: "review", code: "late_success", order_id: orderId, actions: ["acknowledge"] })])
      const order = await orderWithCollections(orderId)
      expect(order.status).toBe("canceled")
      const balance = order.payment_collections.find((pc: any) => pc.id === collection.id)
      expect((balance.payments ?? []).flatMap((p: any) => p.captures ?? [])).toEqual([])
    })
  })
}
