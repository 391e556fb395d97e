import { MedusaError, PaymentActions, PaymentSessionStatus } from "@medusajs/framework/utils"
import { OdemeCheckoutProvider } from "../services/odeme-checkout"
import { failureOf, silentLogger, startServiceForProviders } from "./support/memory-module"

let env: Awaited<ReturnType<typeof startServiceForProviders>>
let provider: OdemeCheckoutProvider
let seq = 0
const sessionId = () => `payses_checkoutunit${String(++seq).padStart(6, "0")}`
const initiate = (id: string, over: Record<string, unknown> = {}) =>
  provider.initiatePayment({ amount: 250, currency_code: "try", data: { session_id: id }, context: {}, ...over } as any)
const setStatus = (id: string, status: string) => {
  const row = env.module.payments.get(id)!
  env.module.payments.set(id, { ...row, status: status as any, version: row.version + 1 })
}

beforeAll(async () => {
  env = await startServiceForProviders({ refunds: "manual" })
  provider = new OdemeCheckoutProvider({ logger: silentLogger }, env.options)
})
afterAll(() => env.emulator.close())

describe("Quick Checkout provider", () => {
  it("initiatePayment records the session and returns a form signed for the service, amount as two decimals", async () => {
    const id = sessionId()
    const out = await initiate(id)
    expect(out.status).toBe(PaymentSessionStatus.PENDING)
    const data = out.data as any
    // The service is sent the short reference as order_id and reads it in the description; `reference` stays the session id.
    const short = env.module.payments.get(id)!.reference!
    expect(short).toMatch(/^OD-[0-9A-HJKMNP-TV-Z]{6}$/)
    expect(data).toMatchObject({
      reference: id,
      shopper_reference: short,
      amount: "250.00",
      currency: "TRY",
      description: `Sipariş ödemesi ${short}`,
      state: "pending",
    })
    expect(data.form.fields).toMatchObject({ order_id: short, amount: "250.00", currency: "TRY" })
    expect(JSON.stringify(data.form.fields)).not.toMatch(/order_id":"payses_/)
    expect(data.form.fields.signature).toMatch(/^[0-9a-f]{64}$/)
    expect(env.module.payments.get(id)).toMatchObject({ provider: "odeme-checkout", status: "pending", amount: "250.00" })
  })

  it("initiatePayment keeps none of a storefront's own keys: a made-up manual_refunds would reach the payment Admin reads", async () => {
    const id = sessionId()
    const out = await initiate(id, { data: { session_id: id, manual_refunds: [{ amount: "4999.00" }], state: "paid", charged_amount: "1.00" } })
    const data = out.data as any
    expect(data.manual_refunds).toBeUndefined()
    expect(data).toMatchObject({ state: "pending", amount: "250.00" })
    expect(data.charged_amount).toBeUndefined()
  })

  it("initiatePayment refuses with stable codes: a foreign return_url, an unsupported currency, a zero amount", async () => {
    const foreign = await failureOf(initiate(sessionId(), { data: { session_id: "payses_x1234567890", return_url: "https://evil.example/return" } }))
    expect(foreign).toMatchObject({ type: MedusaError.Types.INVALID_DATA, code: "odeme.return_url_not_allowed" })
    expect(foreign.message).toMatch(/\[odeme\.return_url_not_allowed\]$/)
    expect(await failureOf(initiate(sessionId(), { currency_code: "jpy" }))).toMatchObject({ code: "odeme.currency_unsupported" })
    expect(await failureOf(initiate(sessionId(), { amount: 0 }))).toMatchObject({ code: "odeme.amount_invalid" })
    expect(await failureOf(initiate("", { data: {} }))).toMatchObject({ code: "odeme.invalid_session_data" })
  })

  it("authorizePayment believes only the recorded state: captured when paid, a coded authorization error otherwise", async () => {
    const id = sessionId()
    const { data } = await initiate(id)
    const cases: Array<[string, string]> = [
      ["pending", "odeme.payment_pending"],
      ["failed", "odeme.payment_failed"],
      ["review", "odeme.payment_in_review"],
      ["canceled", "odeme.payment_canceled"],
      ["expired", "odeme.payment_canceled"],
    ]
    for (const [status, code] of cases) {
      setStatus(id, status)
      expect(await failureOf(provider.authorizePayment({ data } as any))).toMatchObject({ type: MedusaError.Types.PAYMENT_AUTHORIZATION_ERROR, code })
    }
    setStatus(id, "paid")
    const paid = await provider.authorizePayment({ data } as any)
    expect(paid.status).toBe(PaymentSessionStatus.CAPTURED)
    expect((paid.data as any).form).toBeUndefined()
  })

  it("getPaymentStatus maps every plugin state to Medusa's session status", async () => {
    const id = sessionId()
    const { data } = await initiate(id)
    const expected: Record<string, string> = {
      pending: PaymentSessionStatus.PENDING,
      paid: PaymentSessionStatus.CAPTURED,
      failed: PaymentSessionStatus.ERROR,
      canceled: PaymentSessionStatus.CANCELED,
      review: PaymentSessionStatus.REQUIRES_MORE,
    }
    for (const [state, status] of Object.entries(expected)) {
      setStatus(id, state)
      expect((await provider.getPaymentStatus({ data } as any)).status).toBe(status)
    }
  })

  it("capturePayment confirms only what the service confirmed", async () => {
    const id = sessionId()
    const { data } = await initiate(id)
    expect(await failureOf(provider.capturePayment({ data } as any))).toMatchObject({ type: MedusaError.Types.NOT_ALLOWED })
    expect(await failureOf(provider.capturePayment({ data: { session_id: "payses_neverseen00001" } } as any))).toMatchObject({
      type: MedusaError.Types.NOT_ALLOWED,
    })
    setStatus(id, "paid")
    expect((await provider.capturePayment({ data } as any)).data).toMatchObject({ captured: true })
  })

  it("cancelPayment moves a pending payment to canceled through the transition function; a paid one stays paid", async () => {
    const id = sessionId()
    const { data } = await initiate(id)
    await provider.cancelPayment({ data } as any)
    expect(env.module.payments.get(id)).toMatchObject({ status: "canceled", version: 1 })
    const paidId = sessionId()
    const paid = await initiate(paidId)
    setStatus(paidId, "paid")
    await provider.cancelPayment({ data: paid.data } as any)
    expect(env.module.payments.get(paidId)!.status).toBe("paid")
  })

  it("cancel and delete act only on data the plugin wrote for that session: a storefront's session_id names nothing", async () => {
    const victim = sessionId()
    const { data } = await initiate(victim)
    expect((data as any).session_tag).toEqual(expect.any(String))
    // Medusa hands the storefront's own data to deleteSession when a session's creation fails.
    await provider.deletePayment({ data: { session_id: victim } } as any)
    await provider.cancelPayment({ data: { session_id: victim, session_tag: "forged" } } as any)
    await provider.deletePayment({ data: { ...(data as any), session_id: sessionId() } } as any)
    expect(env.module.payments.get(victim)).toMatchObject({ status: "pending", version: 0 })
    await provider.deletePayment({ data } as any)
    expect(env.module.payments.get(victim)).toMatchObject({ status: "canceled" })
  })

  it("takes the session id from Medusa's context and refuses data that names another session", async () => {
    const own = sessionId()
    const f = await failureOf(initiate(own, { data: { session_id: "payses_someoneelse0001" }, context: { idempotency_key: own } }))
    expect(f).toMatchObject({ code: "odeme.invalid_session_data" })
    expect(env.module.payments.get("payses_someoneelse0001")).toBeUndefined()
    const out = await initiate(own, { data: { session_id: own }, context: { idempotency_key: own } })
    expect((out.data as any).session_id).toBe(own)
  })

  it("refundPayment with refunds: manual records the amount to pay back in the merchant panel", async () => {
    const out = await provider.refundPayment({ amount: 99.5, data: { session_id: "payses_refund000001" } } as any)
    const refunds = (out.data as any).manual_refunds
    expect(refunds).toHaveLength(1)
    expect(refunds[0]).toMatchObject({ amount: "99.50" })
    expect(refunds[0].note).toMatch(/merchant panel/)
  })

  it("getWebhookActionAndData stores a notification for a known session and tells Medusa there is nothing for it to do", async () => {
    const id = sessionId()
    await initiate(id)
    const body = {
      order_id: id,
      uuid: "c0ffee00-0000-4000-8000-000000000001",
      status: "successful",
      hash: "a".repeat(64),
      amount: "250.00",
      currency: "TRY",
    }
    const before = env.module.stored.length
    expect(await provider.getWebhookActionAndData({ data: body, rawData: JSON.stringify(body), headers: {} } as any)).toEqual({
      action: PaymentActions.NOT_SUPPORTED,
    })
    expect(env.module.stored.length).toBe(before + 1)
    await provider.getWebhookActionAndData({ data: { ...body, order_id: "payses_unknown000001" }, rawData: "", headers: {} } as any)
    expect(env.module.stored.length).toBe(before + 1)
  })
})

describe("Quick Checkout provider with refunds: reject", () => {
  it("refuses a refund and says where to make it", async () => {
    const strict = await startServiceForProviders({ refunds: "reject" })
    try {
      const p = new OdemeCheckoutProvider({ logger: silentLogger }, strict.options)
      const f = await failureOf(p.refundPayment({ amount: 10, data: { session_id: "payses_refund000002" } } as any))
      expect(f.type).toBe(MedusaError.Types.NOT_ALLOWED)
      expect(f.message).toMatch(/merchant panel/)
      // Medusa Admin's toast shows the message as it is: a Turkish admin reads it too, and the code is stable.
      expect(f.message).toMatch(/üye işyeri panelinden/)
      expect(f.message).toContain("[odeme.refunds_rejected]")
    } finally {
      await strict.emulator.close()
    }
  })
})
