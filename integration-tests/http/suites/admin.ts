import { ContainerRegistrationKeys, generateEntityId } from "@medusajs/framework/utils"
import { adminClient } from "../../utils/admin"
import type { SuiteContext } from "../../utils/environment"
import { cartOutcome } from "../../utils/inspect"
import { cartWithCollection, cartWithSession, completeCart, seedStore, TRANSFER_PROVIDER, type SeededStore } from "../../utils/store"

export function adminSuite({ env, api, getContainer }: SuiteContext) {
  describe("Admin API", () => {
    let store: SeededStore
    // A fresh admin before each test; every admin response of this file is checked for the key.
    const { get, post } = adminClient(api, getContainer, { apiKey: () => env.emulator.apiKey, minResponses: 16 })

    beforeEach(async () => {
      await env.emulator.control("POST", "/_control/reset")
      store = await seedStore(getContainer(), { providers: [TRANSFER_PROVIDER, "pp_system_default"] })
    })

    const db = () => getContainer().resolve(ContainerRegistrationKeys.PG_CONNECTION)
    const transferList = async (): Promise<any[]> => (await env.emulator.control("GET", "/_control/transfers")).result

    async function firstBankId(): Promise<number> {
      const { data } = await api.get("/store/odeme/banks", store.headers)
      return data.bank_groups[0].accounts[0].bank_id
    }

    /** A transfer order: "pending" leaves it awaiting the money, "successful" captures it at once. */
    async function transferOrder(sandbox_result: "pending" | "successful", customer_name = "Mehmet Öztürk") {
      const { cart, session } = await cartWithSession(api, store, TRANSFER_PROVIDER, {
        bank_id: await firstBankId(),
        customer_name,
        sandbox_result,
      })
      const res = await completeCart(api, store, cart.id)
      expect(res.data.type).toBe("order")
      return { cart, session, orderId: res.data.order.id as string }
    }

    const captured = async (cartId: string) => (await cartOutcome(getContainer(), cartId)).paymentList

    describe("auth", () => {
      const routes: Array<["get" | "post", string]> = [
        ["get", "/admin/odeme/orders/order_123/payment"],
        ["post", "/admin/odeme/payments/payses_123/check"],
        ["get", "/admin/odeme/transfers"],
        ["get", "/admin/odeme/notifications"],
        ["post", "/admin/odeme/notifications/odntf_123/retry"],
        ["get", "/admin/odeme/settings"],
        ["post", "/admin/odeme/connection"],
      ]
      it.each(routes)("%s %s answers 401 without an admin", async (method, url) => {
        const anonymous = await api[method](url, ...(method === "post" ? [{}] : []), { validateStatus: () => true })
        expect(anonymous.status).toBe(401)
        const forged = await api[method](url, ...(method === "post" ? [{}] : []), {
          headers: { authorization: "Bearer not-a-token" },
          validateStatus: () => true,
        })
        expect(forged.status).toBe(401)
        // A storefront's publishable key is no admin either.
        const storefront = await api[method](url, ...(method === "post" ? [{}] : []), { ...store.headers, validateStatus: () => true })
        expect(storefront.status).toBe(401)
      })
    })

    describe("GET /admin/odeme/orders/:order_id/payment", () => {
      it("shows an awaiting transfer as codes the Admin translates, with bank, IBAN and tracking number", async () => {
        const { session, orderId } = await transferOrder("pending")
        const res = await get(`/admin/odeme/orders/${orderId}/payment`)
        expect(res.status).toBe(200)
        expect(res.data.payments).toHaveLength(1)
        const [transfer] = await transferList()
        expect(res.data.payments[0]).toEqual(
          expect.objectContaining({
            session_id: session.id,
            provider_id: TRANSFER_PROVIDER,
            provider: "odeme-transfer",
            flow: "transfer_api",
            sandbox: true,
            state: "awaiting_transfer",
            medusa_session_status: "pending_authorization",
            amount: "250.00",
            currency: "TRY",
            tracking_no: transfer.tracking_no ?? expect.any(String),
            payer_name: "Mehmet Öztürk",
            bank_name: expect.any(String),
            account_holder: expect.any(String),
            iban_display: expect.stringMatching(/^TR\d{2}( \d{4}){5} \d{2}$/),
            timeline: expect.any(Array),
          })
        )
        expect(res.data.payments[0]).not.toHaveProperty("iban")
        // Codes, not English: the Admin translates state, flow and timeline.
        expect(res.data.payments[0]).not.toHaveProperty("status_text")
        expect(res.data.payments[0]).not.toHaveProperty("flow_label")
        for (const e of res.data.payments[0].timeline) {
          expect(e).toEqual(expect.objectContaining({ code: expect.any(String), params: expect.any(Object) }))
          expect(e).not.toHaveProperty("text")
        }
      })

      it("shows a paid transfer as paid", async () => {
        const { orderId } = await transferOrder("successful", "Ayşe Yılmaz")
        const res = await get(`/admin/odeme/orders/${orderId}/payment`)
        expect(res.status).toBe(200)
        expect(res.data.payments[0]).toEqual(
          expect.objectContaining({ state: "paid", payer_name: "Ayşe Yılmaz", sandbox: true, tracking_no: expect.any(String) })
        )
      })

      it("gives an empty list for an order paid otherwise, 404 for an unknown order, 400 for a malformed id", async () => {
        const { cart } = await cartWithSession(api, store, "pp_system_default", {})
        const done = await completeCart(api, store, cart.id)
        expect(done.data.type).toBe("order")
        const other = await get(`/admin/odeme/orders/${done.data.order.id}/payment`)
        expect(other.status).toBe(200)
        expect(other.data.payments).toEqual([])

        const unknown = await get("/admin/odeme/orders/order_does_not_exist/payment")
        expect(unknown.status).toBe(404)
        expect(unknown.data.message).toMatch(/order_does_not_exist was not found/)

        const bad = await get(`/admin/odeme/orders/${encodeURIComponent("order'; drop")}/payment`)
        expect(bad.status).toBe(400)
        expect(bad.data.message).toMatch(/order_id may only contain/)
      })
    })

    describe("POST /admin/odeme/payments/:session_id/check", () => {
      it("check now: still waiting, then captured once the emulator approved the transfer", async () => {
        const { cart, session, orderId } = await transferOrder("pending")

        const waiting = await post(`/admin/odeme/payments/${session.id}/check`)
        expect(waiting.status).toBe(200)
        expect(waiting.data).toEqual(
          expect.objectContaining({ session_id: session.id, state: "awaiting_transfer", changed: false, code: "still_waiting" })
        )
        expect(await captured(cart.id)).toHaveLength(0)

        const pending = await get("/admin/odeme/transfers")
        expect(pending.status).toBe(200)
        expect(pending.data.count).toBe(1)
        expect(pending.data.transfers[0]).toEqual(
          expect.objectContaining({ session_id: session.id, state: "awaiting_transfer", flow: "transfer_api" })
        )

        const [transfer] = await transferList()
        await env.emulator.control("POST", `/_control/transfers/${transfer.uuid}/settle`, { result: "successful" })

        const now = await post(`/admin/odeme/payments/${session.id}/check`)
        expect(now.status).toBe(200)
        expect(now.data).toEqual(expect.objectContaining({ session_id: session.id, state: "paid", changed: true, code: "service_status" }))
        const payments = await captured(cart.id)
        expect(payments).toHaveLength(1)
        expect(Date.parse(String(payments[0].captured_at))).toBeGreaterThan(0)
        expect(payments[0].captures).toHaveLength(1)

        const after = await get(`/admin/odeme/orders/${orderId}/payment`)
        expect(after.data.payments[0]).toEqual(expect.objectContaining({ state: "paid", last_checked_at: expect.any(String) }))
        expect(after.data.payments[0].timeline).toEqual(
          expect.arrayContaining([
            expect.objectContaining({ kind: "result", source: "poll", code: "last_check", detail: expect.stringMatching(/sale_status 1/) }),
          ])
        )
        expect((await get("/admin/odeme/transfers")).data.count).toBe(0)

        // Checking again changes nothing: still one capture.
        const again = await post(`/admin/odeme/payments/${session.id}/check`)
        expect(again.data).toEqual(expect.objectContaining({ state: "paid", changed: false }))
        expect((await captured(cart.id))[0].captures).toHaveLength(1)
      })

      it("a transfer the service no longer knows: the check says so with a code, and the order's payment shows the failing check", async () => {
        const { session, orderId } = await transferOrder("pending")
        // The service lost it: its uuid endpoint answers 404 for an id it does not have.
        await db()("odeme_payment").where({ session_id: session.id }).update({ service_uuid: "00000000-0000-4000-8000-000000000000" })
        const res = await post(`/admin/odeme/payments/${session.id}/check`)
        expect(res.status).toBe(200)
        expect(res.data).toEqual(expect.objectContaining({ state: "awaiting_transfer", changed: false, code: "not_found" }))
        const order = await get(`/admin/odeme/orders/${orderId}/payment`)
        expect(order.data.payments[0]).toEqual(
          expect.objectContaining({
            state: "awaiting_transfer",
            last_result: "check failed: http 404",
            last_check: { code: "not_found", failed: true, params: { status: "404" } },
          })
        )
      })

      it("404 for a session the plugin does not know", async () => {
        const res = await post("/admin/odeme/payments/payses_unknown/check")
        expect(res.status).toBe(404)
        expect(res.data.message).toMatch(/payses_unknown/)
      })
    })

    describe("GET /admin/odeme/attention", () => {
      /** A transfer cart whose customer gave a name in the billing address and an e-mail, before its session. */
      async function namedTransferCart(email: string, first_name: string, last_name: string) {
        const { cart, collectionId } = await cartWithCollection(api, store, { email })
        const address = { first_name, last_name, address_1: "Bağdat Caddesi 1", city: "İstanbul", postal_code: "34710", country_code: "tr" }
        await api.post(`/store/carts/${cart.id}`, { billing_address: address }, store.headers)
        const { data } = await api.post(
          `/store/payment-collections/${collectionId}/payment-sessions`,
          {
            provider_id: TRANSFER_PROVIDER,
            data: { bank_id: await firstBankId(), customer_name: `${first_name} ${last_name}`, sandbox_result: "pending" },
          },
          store.headers
        )
        return { cart, session: data.payment_collection.payment_sessions[0] }
      }

      it("names each item's customer from Medusa: an order's, and an open cart's through its session", async () => {
        // An order whose notification the plugin gave up on.
        const placed = await namedTransferCart("ayse@example.com", "Ayşe", "Yılmaz")
        const done = await completeCart(api, store, placed.cart.id)
        expect(done.data.type).toBe("order")
        await db()("odeme_notification").insert({
          id: generateEntityId(undefined, "odntf"),
          source: "webhook",
          dedupe_key: `n:attention-customer:${placed.session.id}`,
          session_id: placed.session.id,
          status: "successful",
          payload: JSON.stringify({ order_id: placed.session.id, status: "successful" }),
          state: "dead",
          attempts: 12,
          last_error: "verify failed: the service answered HTTP 500",
          outcome: "dead",
        })
        // A cart left open: the transfer's creation got no clear answer, so no order names it.
        const open = await namedTransferCart("deniz@example.com", "Deniz", "Aksoy")
        await env.emulator.control("POST", "/_control/faults", { endpoint: "create_transfer", mode: "commit_then_502", count: 1 })
        expect((await completeCart(api, store, open.cart.id)).data.type).toBe("cart")

        const res = await get("/admin/odeme/attention")
        expect(res.status).toBe(200)
        const itemOf = (sessionId: string) => res.data.items.find((i: any) => i.session_id === sessionId)
        // Through the order once order.placed has named it on the payment, through the session's cart until then.
        expect(itemOf(placed.session.id)).toEqual(
          expect.objectContaining({ kind: "dead_notification", customer: { name: "Ayşe Yılmaz", email: "ayse@example.com" } })
        )
        expect(itemOf(open.session.id)).toEqual(
          expect.objectContaining({ kind: "unknown_outcome", order_id: null, customer: { name: "Deniz Aksoy", email: "deniz@example.com" } })
        )
      })
    })

    describe("GET /admin/odeme/transfers", () => {
      it("lists pending transfers newest first, paged, with the count", async () => {
        const first = await transferOrder("pending", "Birinci Müşteri")
        const second = await transferOrder("pending", "İkinci Müşteri")
        await transferOrder("successful", "Ödenmiş Müşteri")
        const all = await get("/admin/odeme/transfers")
        expect(all.status).toBe(200)
        expect(all.data.count).toBe(2)
        expect(all.data.transfers.map((t: any) => t.session_id)).toEqual([second.session.id, first.session.id])
        const page = await get("/admin/odeme/transfers?limit=1&offset=1")
        expect(page.data).toEqual(expect.objectContaining({ count: 2, limit: 1, offset: 1 }))
        expect(page.data.transfers.map((t: any) => t.payer_name)).toEqual(["Birinci Müşteri"])

        const bad = await get("/admin/odeme/transfers?limit=abc")
        expect(bad.status).toBe(400)
        expect(bad.data.message).toMatch(/limit/)
        const tooMany = await get("/admin/odeme/transfers?limit=1000")
        expect(tooMany.status).toBe(400)
        expect(tooMany.data.message).toMatch(/field 'limit' too big, expected at most: '100'/)
      })
    })

    describe("notifications", () => {
      it("lists dead notifications and a retry confirms the payment", async () => {
        const { cart, session, orderId } = await transferOrder("pending", "Zeynep Kaya")
        const [transfer] = await transferList()
        const settled = await env.emulator.control("POST", `/_control/transfers/${transfer.uuid}/settle`, { result: "successful" })
        const hash = settled.result.hashes.successful
        expect(hash).toEqual(expect.any(String))

        // A webhook the plugin gave up on (verify kept failing): stored dead with its error.
        const id = generateEntityId(undefined, "odntf")
        await db()("odeme_notification").insert({
          id,
          source: "webhook",
          dedupe_key: `n:${transfer.uuid}:successful`,
          session_id: session.id,
          service_uuid: transfer.uuid,
          status: "successful",
          type: "bank_transfer",
          payload: JSON.stringify({
            // What the service knows the payment by (issue 43): the reference the plugin sent as order_id.
            order_id: (await db()("odeme_payment").where({ session_id: session.id }).first()).reference,
            uuid: transfer.uuid,
            status: "successful",
            hash,
            amount: "250.00",
            currency: "TRY",
          }),
          state: "dead",
          attempts: 12,
          duplicate_count: 2,
          last_error: "verify failed: the service answered HTTP 500",
          outcome: "dead",
        })

        const list = await get("/admin/odeme/notifications")
        expect(list.status).toBe(200)
        expect(list.data).toEqual(expect.objectContaining({ state: "dead", count: 1 }))
        expect(list.data.notifications[0]).toEqual(
          expect.objectContaining({ id, session_id: session.id, state: "dead", attempts: 12, last_error: expect.stringMatching(/HTTP 500/) })
        )
        expect((await get("/admin/odeme/notifications?state=done")).data.count).toBe(0)

        const before = await get(`/admin/odeme/orders/${orderId}/payment`)
        const kinds = before.data.payments[0].timeline.map((e: any) => e.kind)
        expect(kinds).toEqual(expect.arrayContaining(["received", "duplicate", "error"]))
        expect(before.data.payments[0].timeline.find((e: any) => e.kind === "duplicate")).toEqual(
          expect.objectContaining({ code: "duplicates", params: { count: 2 } })
        )
        expect(before.data.payments[0].timeline.find((e: any) => e.kind === "error")).toEqual(
          expect.objectContaining({ code: "dead", params: { count: 12 }, detail: expect.stringMatching(/HTTP 500/) })
        )

        const retry = await post(`/admin/odeme/notifications/${id}/retry`)
        expect(retry.status).toBe(200)
        expect(retry.data.result).toEqual(expect.objectContaining({ notification_id: id, outcome: "paid" }))
        expect(retry.data.notification).toEqual(expect.objectContaining({ state: "done", outcome: "paid" }))
        expect((await get("/admin/odeme/notifications")).data.count).toBe(0)
        expect((await get("/admin/odeme/notifications?state=done")).data.count).toBe(1)

        const payments = await captured(cart.id)
        expect(payments).toHaveLength(1)
        expect(Date.parse(String(payments[0].captured_at))).toBeGreaterThan(0)

        const after = await get(`/admin/odeme/orders/${orderId}/payment`)
        expect(after.data.payments[0]).toEqual(expect.objectContaining({ state: "paid" }))
        const timeline = after.data.payments[0].timeline
        expect(timeline).toEqual(
          expect.arrayContaining([
            expect.objectContaining({
              kind: "verified",
              source: "webhook",
              code: "verified",
              params: expect.objectContaining({ valid: "yes", official_status: "successful" }),
            }),
            expect.objectContaining({ kind: "result", source: "webhook", code: "outcome_paid" }),
          ])
        )
      })

      it("validates state and id", async () => {
        const bad = await get("/admin/odeme/notifications?state=lost")
        expect(bad.status).toBe(400)
        expect(bad.data.message).toMatch(/Expected: 'received, processing, retry, done, dead' for field 'state'/)
        const unknown = await post("/admin/odeme/notifications/odntf_nothing/retry")
        expect(unknown.status).toBe(404)
        expect(unknown.data.message).toMatch(/odntf_nothing was not found/)
      })
    })
  })
}
