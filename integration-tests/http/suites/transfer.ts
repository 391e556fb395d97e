import type { SuiteContext } from "../../utils/environment"
import { expectKeptWithoutKey, keepResponses } from "../../utils/kept-responses"
import { odemePayments, ordersOfCart, paymentProvider, paymentSession } from "../../utils/inspect"
import { cartWithSession, completeCart, seedStore, serviceOrderIdOf, TRANSFER_PROVIDER, type SeededStore } from "../../utils/store"

export function transferSuite({ env, api, getContainer }: SuiteContext) {
  describe("bank transfer through the API", () => {
    let store: SeededStore
    let bodies: string[] = []

    beforeAll(() => {
      // Every store response of this file is kept, to prove the API key never leaves the server.
      bodies = keepResponses(api)
    })

    beforeEach(async () => {
      await env.emulator.control("POST", "/_control/reset")
      store = await seedStore(getContainer())
    })

    afterAll(() => expectKeptWithoutKey(bodies, env.emulator.apiKey, 21))

    const transferList = async (): Promise<any[]> => (await env.emulator.control("GET", "/_control/transfers")).result

    async function firstBankId(): Promise<number> {
      const { data } = await api.get("/store/odeme/banks", store.headers)
      return data.bank_groups[0].accounts[0].bank_id
    }

    describe("GET /store/odeme/banks", () => {
      it("lists bank groups with accounts and IBANs grouped in fours", async () => {
        const { status, data } = await api.get("/store/odeme/banks", store.headers)
        expect(status).toBe(200)
        expect(data.bank_groups.length).toBeGreaterThan(0)
        const account = data.bank_groups[0].accounts[0]
        expect(account).toEqual(
          expect.objectContaining({
            bank_id: expect.any(Number),
            bank_name: expect.any(String),
            account_holder: expect.any(String),
            iban: expect.stringMatching(/^TR\d{24}$/),
            iban_display: expect.stringMatching(/^TR\d{2}( \d{4}){5} \d{2}$/),
          })
        )
      })

      it("needs a publishable key", async () => {
        const res = await api.get("/store/odeme/banks", { validateStatus: () => true })
        expect(res.status).toBe(400)
      })
    })

    describe("payment session", () => {
      it("returns reference, amount, currency and the bank accounts, never the key", async () => {
        const { session, response } = await cartWithSession(api, store, TRANSFER_PROVIDER, {})
        expect(response.status).toBe(200)
        expect(session.data).toEqual(
          expect.objectContaining({
            reference: session.id,
            session_id: session.id,
            amount: "250.00",
            currency: "TRY",
            banks: expect.arrayContaining([expect.objectContaining({ bank_id: expect.any(Number) })]),
          })
        )
        expect(JSON.stringify(session.data)).not.toContain(env.emulator.apiKey)
      })

      it("takes client_ip from the request, not from the body", async () => {
        const bankId = await firstBankId()
        const { session } = await cartWithSession(api, store, TRANSFER_PROVIDER, {
          bank_id: bankId,
          customer_name: "Ayşe Yılmaz",
          client_ip: "203.0.113.99",
        })
        expect(session.data.client_ip).not.toBe("203.0.113.99")
        expect(session.data.client_ip).toMatch(/^(127\.0\.0\.1|::1)$/)
      })

      it("refuses an unknown bank with a clear 400", async () => {
        const { response } = await cartWithSession(api, store, TRANSFER_PROVIDER, { bank_id: 999999, customer_name: "Ayşe Yılmaz" })
        expect(response.status).toBe(400)
        expect(response.data.message).toMatch(/Unknown bank_id 999999/)
      })

      it("refuses an invalid payer name with a clear 400", async () => {
        const { response } = await cartWithSession(api, store, TRANSFER_PROVIDER, { customer_name: { x: 1 } })
        expect(response.status).toBe(400)
        expect(response.data.message).toMatch(/customer_name/)
      })

      it("refuses sandbox_result values that do not exist", async () => {
        const { response } = await cartWithSession(api, store, TRANSFER_PROVIDER, { sandbox_result: "approve-please" })
        expect(response.status).toBe(400)
      })
    })

    describe("complete cart", () => {
      it("sandbox successful → order placed, payment captured, one transfer", async () => {
        const bankId = await firstBankId()
        const { cart, session } = await cartWithSession(api, store, TRANSFER_PROVIDER, {
          bank_id: bankId,
          customer_name: "Ayşe Yılmaz",
        })
        const res = await completeCart(api, store, cart.id)
        expect(res.status).toBe(200)
        expect(res.data.type).toBe("order")

        const orders = await ordersOfCart(getContainer(), cart.id)
        expect(orders).toHaveLength(1)
        const payments = orders[0].payment_collections[0].payments
        expect(payments).toHaveLength(1)
        expect(Date.parse(String(payments[0].captured_at))).toBeGreaterThan(0)
        expect(payments[0].captures).toHaveLength(1)

        const list = await transferList()
        expect(list).toHaveLength(1)
        expect(list[0].order_id).toBe(serviceOrderIdOf(session))
        expect(serviceOrderIdOf(session)).toMatch(/^OD-[0-9A-HJKMNP-TV-Z]{6}$/)
        expect(list[0].transfer_record.br_name).toBe("Ayşe Yılmaz")

        const [row] = await odemePayments(getContainer())
        expect(row).toEqual(expect.objectContaining({ status: "paid", creation_state: "created", tracking_no: expect.any(String) }))
      })

      it("sandbox pending → order awaiting, session pending_authorization; approval is then reported", async () => {
        const bankId = await firstBankId()
        const { cart, session } = await cartWithSession(api, store, TRANSFER_PROVIDER, {
          bank_id: bankId,
          customer_name: "Mehmet Öztürk",
          sandbox_result: "pending",
        })
        const res = await completeCart(api, store, cart.id)
        expect(res.data.type).toBe("order")
        const orders = await ordersOfCart(getContainer(), cart.id)
        expect(orders).toHaveLength(1)
        expect(orders[0].payment_collections[0].payments ?? []).toHaveLength(0)
        const awaiting = await paymentSession(getContainer(), session.id)
        expect(awaiting.status).toBe("pending_authorization")
        // The shopper's deadline (transfer.expiryHours, 48 by default, after the transfer was created).
        const hoursLeft = (Date.parse(String(awaiting.data?.expires_at)) - Date.now()) / 3_600_000
        expect(hoursLeft).toBeGreaterThan(47)
        expect(hoursLeft).toBeLessThanOrEqual(48)

        const status1 = await api.get(`/store/odeme/payment-sessions/${session.id}?cart_id=${cart.id}`, store.headers)
        expect(status1.data.payment_session).toEqual(
          expect.objectContaining({ status: "pending", state: "awaiting_transfer", iban: expect.any(String), tracking_no: expect.any(String) })
        )

        const [transfer] = await transferList()
        await env.emulator.control("POST", `/_control/transfers/${transfer.uuid}/settle`, { result: "successful" })

        const provider = paymentProvider(getContainer(), TRANSFER_PROVIDER)
        const { status } = await provider.getPaymentStatus({ data: { session_id: session.id } })
        expect(status).toBe("captured")
        const status2 = await api.get(`/store/odeme/payment-sessions/${session.id}?cart_id=${cart.id}`, store.headers)
        expect(status2.data.payment_session.status).toBe("paid")
        expect(await transferList()).toHaveLength(1)
      })

      it("sandbox failed → no order, a readable error for the storefront", async () => {
        const bankId = await firstBankId()
        const { cart } = await cartWithSession(api, store, TRANSFER_PROVIDER, {
          bank_id: bankId,
          customer_name: "Ali Veli",
          sandbox_result: "failed",
        })
        const res = await completeCart(api, store, cart.id)
        expect(res.status).toBe(200)
        expect(res.data.type).toBe("cart")
        expect(res.data.error.message).toMatch(/rejected/)
        expect(await ordersOfCart(getContainer(), cart.id)).toHaveLength(0)
      })

      it("missing payer name → no transfer, no order, a message that says what is missing", async () => {
        const bankId = await firstBankId()
        const { cart } = await cartWithSession(api, store, TRANSFER_PROVIDER, { bank_id: bankId })
        const res = await completeCart(api, store, cart.id)
        expect(res.status).toBe(400)
        expect(res.data.message).toMatch(/payer's full name/)
        expect(await transferList()).toHaveLength(0)
        expect(await ordersOfCart(getContainer(), cart.id)).toHaveLength(0)
      })

      it("service answering 500 → no order; that session is never retried, a new session creates exactly one transfer", async () => {
        const bankId = await firstBankId()
        const { cart } = await cartWithSession(api, store, TRANSFER_PROVIDER, { bank_id: bankId, customer_name: "Zeynep Kaya" })
        await env.emulator.control("POST", "/_control/faults", { endpoint: "create_transfer", mode: "error500", count: 1 })
        const first = await completeCart(api, store, cart.id)
        expect(first.data.type).toBe("cart")
        expect(await ordersOfCart(getContainer(), cart.id)).toHaveLength(0)
        expect(await transferList()).toHaveLength(0)

        // Medusa marks the session errored; the storefront starts a new one.
        const again = await api.post(
          `/store/payment-collections/${(await cartCollection(cart.id)).id}/payment-sessions`,
          { provider_id: TRANSFER_PROVIDER, data: { bank_id: bankId, customer_name: "Zeynep Kaya" } },
          store.headers
        )
        expect(again.status).toBe(200)
        const second = await completeCart(api, store, cart.id)
        expect(second.data.type).toBe("order")
        expect(await transferList()).toHaveLength(1)
        expect(await ordersOfCart(getContainer(), cart.id)).toHaveLength(1)
      })

      it("a readable 4xx refusal created nothing: the same session may create its one transfer afterwards", async () => {
        const bankId = await firstBankId()
        const { cart, session } = await cartWithSession(api, store, TRANSFER_PROVIDER, { bank_id: bankId, customer_name: "Selin Arslan" })
        await env.emulator.control("POST", "/_control/faults", { endpoint: "create_transfer", mode: "refuse400", count: 1 })
        const first = await completeCart(api, store, cart.id)
        expect(first.status).toBe(400)
        expect(first.data.message).toMatch(/refused/)
        expect(await transferList()).toHaveLength(0)
        const [row] = await odemePayments(getContainer())
        expect([row.status, row.creation_state]).toEqual(["pending", "failed"])

        const provider = paymentProvider(getContainer(), TRANSFER_PROVIDER)
        const out = await provider.authorizePayment({ data: { ...session.data } })
        expect(out.status).toBe("captured")
        expect(await transferList()).toHaveLength(1)
      })

      it("service answering 500 → the outcome is unknown: never created again for that session", async () => {
        const bankId = await firstBankId()
        const { cart, session } = await cartWithSession(api, store, TRANSFER_PROVIDER, { bank_id: bankId, customer_name: "Emre Koç" })
        await env.emulator.control("POST", "/_control/faults", { endpoint: "create_transfer", mode: "error500", count: 1 })
        expect((await completeCart(api, store, cart.id)).data.type).toBe("cart")
        const [row] = await odemePayments(getContainer())
        expect([row.status, row.creation_state]).toEqual(["unknown", "unknown"])
        const provider = paymentProvider(getContainer(), TRANSFER_PROVIDER)
        await expect(provider.authorizePayment({ data: { ...session.data } })).rejects.toThrow(/may already exist/)
        expect(await transferList()).toHaveLength(0)
      })

      it("service timing out → no order, and the session never creates a transfer again", async () => {
        const bankId = await firstBankId()
        const { cart, session } = await cartWithSession(api, store, TRANSFER_PROVIDER, { bank_id: bankId, customer_name: "Can Demir" })
        await env.emulator.control("POST", "/_control/faults", { endpoint: "create_transfer", mode: "hang", count: 1 })
        const first = await completeCart(api, store, cart.id)
        expect(first.data.type).toBe("cart")
        expect(first.data.error.message).toMatch(/did not answer/)
        const [row] = await odemePayments(getContainer())
        expect(row.creation_state).toBe("unknown")

        // Even with the service back, the same session must not create a (possibly second) transfer.
        await env.emulator.control("DELETE", "/_control/faults")
        const provider = paymentProvider(getContainer(), TRANSFER_PROVIDER)
        await expect(provider.authorizePayment({ data: { ...session.data } })).rejects.toThrow(/may already exist/)
        expect(await transferList()).toHaveLength(0)
        expect(await ordersOfCart(getContainer(), cart.id)).toHaveLength(0)
      })

      it("concurrent completions and authorizations create one transfer and one order", async () => {
        const bankId = await firstBankId()
        const { cart, session } = await cartWithSession(api, store, TRANSFER_PROVIDER, {
          bank_id: bankId,
          customer_name: "Elif Şahin",
          sandbox_result: "pending",
        })
        const provider = paymentProvider(getContainer(), TRANSFER_PROVIDER)
        const results = await Promise.allSettled([
          completeCart(api, store, cart.id),
          completeCart(api, store, cart.id),
          provider.authorizePayment({ data: { ...session.data } }),
          provider.authorizePayment({ data: { ...session.data } }),
        ])
        expect(results.filter((r) => r.status === "fulfilled").length).toBeGreaterThan(0)
        const settled = await completeCart(api, store, cart.id)
        expect(settled.data.type).toBe("order")
        expect(await transferList()).toHaveLength(1)
        expect(await ordersOfCart(getContainer(), cart.id)).toHaveLength(1)
      })
    })

    describe("GET /store/odeme/payment-sessions/:id", () => {
      it("answers only for the cart that owns the session", async () => {
        const { cart, session } = await cartWithSession(api, store, TRANSFER_PROVIDER, {})
        const ok = await api.get(`/store/odeme/payment-sessions/${session.id}?cart_id=${cart.id}`, store.headers)
        expect(ok.status).toBe(200)
        expect(ok.data.payment_session).toEqual(expect.objectContaining({ id: session.id, status: "pending", amount: "250.00" }))
        const other = await api.get(`/store/odeme/payment-sessions/${session.id}?cart_id=cart_other`, {
          ...store.headers,
          validateStatus: () => true,
        })
        expect(other.status).toBe(404)
        const missing = await api.get(`/store/odeme/payment-sessions/${session.id}`, { ...store.headers, validateStatus: () => true })
        expect(missing.status).toBe(400)
        expect(missing.data.message).toMatch(/cart_id'? is required/)
      })
    })

    async function cartCollection(cartId: string) {
      const { data } = await api.get(`/store/carts/${cartId}?fields=payment_collection.id`, store.headers)
      return data.cart.payment_collection
    }
  })
}
