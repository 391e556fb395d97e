import { MedusaError, PaymentSessionStatus } from "@medusajs/framework/utils"
import { OdemeTransferProvider } from "../services/odeme-transfer"
import { failureOf, installMemoryModule, silentLogger, startServiceForProviders } from "./support/memory-module"

let env: Awaited<ReturnType<typeof startServiceForProviders>>
let provider: OdemeTransferProvider
let seq = 0
const sessionId = () => `payses_transferunit${String(++seq).padStart(6, "0")}`
/** Transfer creations the service received (spec §4.4: POST /api/pay/bank_transfer). */
const creates = async () =>
  ((await env.control("GET", "/requests?path=/api/pay/bank_transfer")).result as Array<{ method: string; path: string }>).filter(
    (r) => r.method === "POST" && r.path === "/api/pay/bank_transfer"
  ).length
const payer = { customer_name: "Ayşe Yılmaz", customer_email: "ayse@example.com", client_ip: "203.0.113.7" }

async function started(over: Record<string, unknown> = {}) {
  const id = sessionId()
  const out = await provider.initiatePayment({ amount: "150", currency_code: "try", data: { session_id: id }, context: {} } as any)
  const bank = (out.data as any).banks[0]
  // The sandbox settles a transfer at once unless told to keep it pending.
  return { id, bank, data: { ...(out.data as any), bank_id: bank.bank_id, ...payer, sandbox_result: "pending", ...over } }
}

beforeAll(async () => {
  env = await startServiceForProviders()
  provider = new OdemeTransferProvider({ logger: silentLogger }, env.options)
})
afterAll(() => env.emulator.close())
afterEach(() => env.control("DELETE", "/faults"))

describe("API bank transfer provider", () => {
  it("initiatePayment keeps none of a storefront's own keys (manual_refunds, an IBAN of its own)", async () => {
    const id = sessionId()
    const out = await provider.initiatePayment({
      amount: "150",
      currency_code: "try",
      data: { session_id: id, manual_refunds: [{ amount: "4999.00" }], iban: "TR000000000000000000000000", customer_name: "Ayşe Yılmaz" },
      context: {},
    } as any)
    const data = out.data as any
    expect(data.manual_refunds).toBeUndefined()
    expect(data.iban).toBeUndefined()
    expect(data.customer_name).toBe("Ayşe Yılmaz")
  })

  it("initiatePayment lists the merchant's accounts and records the session; an unknown bank is refused with a code", async () => {
    const { id, bank } = await started()
    expect(bank).toMatchObject({ bank_id: expect.any(Number), iban: expect.stringMatching(/^TR/) })
    expect(env.module.payments.get(id)).toMatchObject({ provider: "odeme-transfer", flow: "transfer_api", amount: "150.00", status: "pending" })
    const refused = await failureOf(
      provider.initiatePayment({ amount: 150, currency_code: "try", data: { session_id: sessionId(), bank_id: 987654 }, context: {} } as any)
    )
    expect(refused).toMatchObject({ type: MedusaError.Types.INVALID_DATA, code: "odeme.bank_unknown" })
    expect(
      await failureOf(provider.initiatePayment({ amount: 150, currency_code: "gbp", data: { session_id: sessionId() }, context: {} } as any))
    ).toMatchObject({
      code: "odeme.currency_unsupported",
    })
  })

  it("reaches the service through the plugin module's one client and bank list, as the store's bank route does", () => {
    const other = new OdemeTransferProvider({ logger: silentLogger }, env.options)
    expect((provider as any).client_).toBe(env.module.client)
    expect((other as any).banks_).toBe(env.module.banks)
  })

  it("authorizePayment asks for the bank and the payer's name before creating anything", async () => {
    const { data } = await started()
    const before = await creates()
    expect(await failureOf(provider.authorizePayment({ data: { ...data, customer_name: "" } } as any))).toMatchObject({
      code: "odeme.transfer_details_missing",
    })
    expect(await creates()).toBe(before)
  })

  it("authorizePayment creates the transfer once and then only reads it", async () => {
    const { id, data } = await started()
    const before = await creates()
    const first = await provider.authorizePayment({ data } as any)
    expect(first.status).toBe(PaymentSessionStatus.PENDING_AUTHORIZATION)
    expect(first.data).toMatchObject({ state: "awaiting_transfer", iban: expect.stringMatching(/^TR/), payment_id: expect.any(String) })
    const again = await provider.authorizePayment({ data } as any)
    expect(again.data).toMatchObject({ payment_id: (first.data as any).payment_id })
    expect(await creates()).toBe(before + 1)
    expect(env.module.payments.get(id)).toMatchObject({ status: "awaiting_transfer", creation_state: "created" })
  })

  it("a transfer the service reports settled is captured at authorization; one it rejects is a coded failure", async () => {
    const settled = await started({ sandbox_result: "successful" })
    expect((await provider.authorizePayment({ data: settled.data } as any)).status).toBe(PaymentSessionStatus.CAPTURED)
    expect(env.module.payments.get(settled.id)!.status).toBe("paid")
    const rejected = await started({ sandbox_result: "failed" })
    expect(await failureOf(provider.authorizePayment({ data: rejected.data } as any))).toMatchObject({
      type: MedusaError.Types.PAYMENT_AUTHORIZATION_ERROR,
      code: "odeme.payment_failed",
      // Medusa Admin's "Check status" shows it as it is: what happened, in words a merchant can act on.
      message: expect.stringContaining("The bank transfer was rejected: the payment service reports that it failed."),
    })
  })

  it("a create answered by a gateway error after the service committed is an unknown outcome, never created again", async () => {
    const { id, data } = await started()
    await env.control("POST", "/faults", { endpoint: "create_transfer", mode: "commit_then_502", count: 1 })
    const before = await creates()
    expect(await failureOf(provider.authorizePayment({ data } as any))).toMatchObject({
      type: MedusaError.Types.PAYMENT_AUTHORIZATION_ERROR,
      code: "odeme.creation_unknown",
    })
    expect(await failureOf(provider.authorizePayment({ data } as any))).toMatchObject({ code: "odeme.creation_unknown" })
    expect(await creates()).toBe(before + 1)
    expect(env.module.payments.get(id)).toMatchObject({ status: "unknown", creation_state: "unknown" })
  })

  it("a create the service refused (4xx) created nothing, so the next attempt may create", async () => {
    const { id, data } = await started()
    await env.control("POST", "/faults", { endpoint: "create_transfer", mode: "refuse400", count: 1 })
    expect(await failureOf(provider.authorizePayment({ data } as any))).toMatchObject({ code: "odeme.service_refused" })
    expect(env.module.payments.get(id)).toMatchObject({ status: "pending", creation_state: "failed" })
    const retried = await provider.authorizePayment({ data } as any)
    expect(retried.data).toMatchObject({ state: "awaiting_transfer" })
  })

  it("a session the plugin never saw is refused with a code", async () => {
    expect(await failureOf(provider.authorizePayment({ data: { session_id: "payses_neverseen000002", bank_id: 1, ...payer } } as any))).toMatchObject(
      {
        type: MedusaError.Types.NOT_FOUND,
        code: "odeme.session_unknown",
      }
    )
  })

  it("a service that answers 5xx reads as unavailable, with a code and no service text", async () => {
    // A new module, as in a process that just started: the bank list is cached by the plugin's module.
    installMemoryModule(env.options)
    try {
      await env.control("POST", "/faults", { endpoint: "*", mode: "error500", count: 10 })
      const unreachable = await failureOf(
        provider.initiatePayment({ amount: 150, currency_code: "try", data: { session_id: sessionId() }, context: {} } as any)
      )
      expect(unreachable).toMatchObject({ type: MedusaError.Types.UNEXPECTED_STATE, code: "odeme.service_unavailable" })
      expect(unreachable.message).toMatch(/HTTP 500/)
    } finally {
      env.module = installMemoryModule(env.options)
    }
  })
})
