import { inspect } from "node:util"
import { MockAgent, type Interceptable } from "undici"
import { OdemeApiError, OdemeClient, TransferSaleStatus, isVerifiedSuccessful, signQuickCheckout } from "../index"

const BASE = "http://127.0.0.1:4010"
const KEY = "sk_SECRET_do_not_leak_123"
const UUID = "3f0c2a7e-9b7d-4c1e-8a55-0d2f6c9e1b42"

type Captured = { method: string; path: string; headers: Record<string, string>; body?: string }

function lowerHeaders(h: unknown): Record<string, string> {
  const out: Record<string, string> = {}
  if (Array.isArray(h)) {
    for (let i = 0; i < h.length; i += 2) out[String(h[i]).toLowerCase()] = String(h[i + 1])
  } else if (h && typeof h === "object") {
    for (const [k, v] of Object.entries(h as Record<string, unknown>)) out[k.toLowerCase()] = String(v)
  }
  return out
}

const JSON_HEADERS = { headers: { "content-type": "application/json" } }

let agent: MockAgent
let pool: Interceptable
let lines: string[]
let calls: Captured[]

function makeClient(extra: Partial<ConstructorParameters<typeof OdemeClient>[0]> = {}) {
  return new OdemeClient({
    baseUrl: BASE + "/",
    apiKey: KEY,
    apiId: 77,
    dispatcher: agent,
    retries: 2,
    retryBaseDelayMs: 1,
    timeoutMs: 2_000,
    logger: {
      debug: (m) => lines.push(m),
      warn: (m) => lines.push(m),
      error: (m) => lines.push(m),
    },
    ...extra,
  })
}

/** Interceptor that records the request and answers with `status`/`data`. */
function on(method: string, path: string, status: number, data: unknown, times = 1) {
  return pool
    .intercept({ method, path })
    .reply((opts) => {
      calls.push({
        method: opts.method,
        path: opts.path,
        headers: lowerHeaders(opts.headers),
        body: typeof opts.body === "string" ? opts.body : opts.body ? String(opts.body) : undefined,
      })
      return { statusCode: status, data: typeof data === "string" ? data : JSON.stringify(data), responseOptions: JSON_HEADERS }
    })
    .times(times)
}

async function catchErr(p: Promise<unknown>): Promise<OdemeApiError> {
  try {
    await p
  } catch (e) {
    expect(e).toBeInstanceOf(OdemeApiError)
    return e as OdemeApiError
  }
  throw new Error("expected a rejection")
}

function expectNoKey(err: OdemeApiError) {
  for (const text of [String(err), err.message, JSON.stringify(err), err.stack ?? "", inspect(err), ...lines]) {
    expect(text).not.toContain(KEY)
  }
  expect((err as { cause?: unknown }).cause).toBeUndefined()
}

const transfer = {
  br_tracking_no: 123456,
  br_name: "Ada Lovelace",
  br_price: "200.50",
  br_currency: "TRY",
  br_bank_name: "Ziraat",
  br_iban: "TR00 0000 0000",
  sale_status: "1",
  sale_date: "1700000000",
  extra_field: "kept",
}

beforeEach(() => {
  agent = new MockAgent()
  agent.disableNetConnect()
  pool = agent.get(BASE)
  lines = []
  calls = []
})

afterEach(async () => {
  await agent.close()
})

describe("OdemeClient requests", () => {
  it("listBankGroups: GET, headers, coercion", async () => {
    on("GET", "/api/pay/bank_transfer/bank-group/list", 200, { result: [{ id: "3", name: "Havale" }] })
    const client = makeClient()
    const groups = await client.listBankGroups()
    expect(groups).toEqual([{ id: 3, name: "Havale" }])
    expect(calls).toHaveLength(1)
    expect(calls[0].method).toBe("GET")
    expect(calls[0].headers["api-key"]).toBe(KEY)
    expect(calls[0].headers["accept"]).toBe("application/json")
    expect(calls[0].headers["content-type"]).toBeUndefined()
    expect(lines.some((l) => /listBankGroups.*status=200.*attempt=1.*durationMs=\d+/.test(l))).toBe(true)
    expect(lines.join("\n")).not.toContain(KEY)
  })

  it("listBanks: GET with group id, default description", async () => {
    on("GET", "/api/pay/bank_transfer/get/banks/5", 200, {
      result: [
        { bta_id: "12", bta_name: "Ziraat", bta_fullname: "Shop Ltd", bta_iban: "TR12 3456", bta_description: "Ref ORD" },
        { bta_id: 13, bta_name: "Garanti", bta_fullname: "Shop Ltd", bta_iban: "TR99" },
      ],
    })
    const banks = await makeClient().listBanks(5)
    expect(banks[0]).toEqual({ bta_id: 12, bta_name: "Ziraat", bta_fullname: "Shop Ltd", bta_iban: "TR12 3456", bta_description: "Ref ORD" })
    expect(banks[1].bta_description).toBe("")
    expect(calls[0].headers["api-key"]).toBe(KEY)
  })

  it("createBankTransfer: POST JSON body with formatted amount", async () => {
    on("POST", "/api/pay/bank_transfer", 200, { message: "successful", payment_id: UUID, order_id: 1001 })
    const res = await makeClient().createBankTransfer({
      bank_id: 12,
      amount: 200,
      currency: "TRY",
      order_id: "1001",
      customer_name: "Ada Lovelace",
      client_ip: "203.0.113.5",
      customer_email: "ada@example.com",
      sandbox_result: "pending",
    })
    expect(res).toEqual({ message: "successful", payment_id: UUID, order_id: "1001" })
    expect(calls[0].method).toBe("POST")
    expect(calls[0].headers["content-type"]).toBe("application/json")
    expect(calls[0].headers["api-key"]).toBe(KEY)
    expect(JSON.parse(calls[0].body!)).toEqual({
      bank_id: 12,
      amount: "200.00",
      currency: "TRY",
      order_id: "1001",
      customer_name: "Ada Lovelace",
      client_ip: "203.0.113.5",
      customer_email: "ada@example.com",
      sandbox_result: "pending",
    })
  })

  it("createBankTransfer accepts a BigNumber-like amount", async () => {
    on("POST", "/api/pay/bank_transfer", 200, { message: "successful", payment_id: UUID, order_id: "A1" })
    await makeClient().createBankTransfer({
      bank_id: 1,
      amount: { raw: { value: "99.999" }, toString: () => "99.999" },
      currency: "USD",
      order_id: "A1",
      customer_name: "X Y",
      client_ip: "::1",
    })
    const body = JSON.parse(calls[0].body!)
    expect(body.amount).toBe("100.00")
    expect(body).not.toHaveProperty("customer_email")
    expect(body).not.toHaveProperty("sandbox_result")
  })

  it("createBankTransfer rejects a bad input without calling the service", async () => {
    const client = makeClient()
    const base = { bank_id: 1, amount: 10, currency: "TRY" as const, order_id: "o", customer_name: "n", client_ip: "1.1.1.1" }
    await expect(client.createBankTransfer({ ...base, amount: 0 })).rejects.toThrow(TypeError)
    await expect(client.createBankTransfer({ ...base, currency: "GBP" as never })).rejects.toThrow(TypeError)
    await expect(client.createBankTransfer({ ...base, bank_id: 1.5 })).rejects.toThrow(TypeError)
    expect(calls).toHaveLength(0)
  })

  it("getTransferByTrackingNo: control path, sandbox_result query, coercion", async () => {
    on("GET", "/api/pay/bank_transfer/control/TR%2F1?sandbox_result=failed", 200, { result: transfer })
    const rec = await makeClient().getTransferByTrackingNo("TR/1", { sandboxResult: "failed" })
    expect(rec.br_tracking_no).toBe("123456")
    expect(rec.br_price).toBe(200.5)
    expect(rec.sale_status).toBe(TransferSaleStatus.APPROVED)
    expect(rec.sale_date).toBe(1700000000)
    expect((rec as Record<string, unknown>).extra_field).toBe("kept")
  })

  it("getTransferByTrackingNo without sandbox result has no query", async () => {
    on("GET", "/api/pay/bank_transfer/control/998877", 200, { result: { ...transfer, sale_status: 0 } })
    const rec = await makeClient().getTransferByTrackingNo("998877")
    expect(rec.sale_status).toBe(TransferSaleStatus.PENDING)
    expect(calls[0].path).toBe("/api/pay/bank_transfer/control/998877")
  })

  it("getTransferByUuid: uuid path", async () => {
    on("GET", `/api/pay/bank_transfer/uuid/${UUID}`, 200, { result: { ...transfer, sale_status: 2 } })
    const rec = await makeClient().getTransferByUuid(UUID)
    expect(rec.sale_status).toBe(TransferSaleStatus.FAILED)
    expect(calls[0].headers["api-key"]).toBe(KEY)
  })

  it("createCardPayment: POST body passed through, redirect_url required", async () => {
    on("POST", "/api/pay/credit_card", 200, { redirect_url: "https://sandbox.example/pay/abc", uuid: UUID, order_id: 55, foo: 1 })
    const rec = await makeClient().createCardPayment({ amount: "10.00", order_id: "55" })
    expect(rec.redirect_url).toBe("https://sandbox.example/pay/abc")
    expect(rec.order_id).toBe("55")
    expect((rec as Record<string, unknown>).foo).toBe(1)
    expect(JSON.parse(calls[0].body!)).toEqual({ amount: "10.00", order_id: "55" })
    expect(calls[0].headers["content-type"]).toBe("application/json")
  })

  it("verifyNotification: POST body, boolean coercion", async () => {
    on("POST", "/api/sale/webhook/verify", 200, {
      success: "true",
      is_valid: 1,
      payment_confirmed: "1",
      official_status: "successful",
      status_match: "false",
      hash_match: 0,
      order_id: 1001,
      uuid: UUID,
      mode: "quick_checkout_fallback",
    })
    const input = { order_id: "1001", uuid: UUID, status: "successful", hash: "abc" }
    const res = await makeClient().verifyNotification(input)
    expect(JSON.parse(calls[0].body!)).toEqual(input)
    expect(res).toMatchObject({
      success: true,
      is_valid: true,
      payment_confirmed: true,
      status_match: false,
      hash_match: false,
      order_id: "1001",
      mode: "quick_checkout_fallback",
    })
    expect(isVerifiedSuccessful(res)).toBe(true)
    expect(isVerifiedSuccessful({ ...res, official_status: "failed" })).toBe(false)
  })

  it("verifyNotification: 'false' string is false, not true", async () => {
    on("POST", "/api/sale/webhook/verify", 200, { is_valid: "false", official_status: "successful" })
    const res = await makeClient().verifyNotification({ order_id: "1", uuid: UUID, status: "successful", hash: "h" })
    expect(res.is_valid).toBe(false)
    expect(isVerifiedSuccessful(res)).toBe(false)
  })

  it("verifyNotification: an unknown boolean string is invalid_response", async () => {
    on("POST", "/api/sale/webhook/verify", 200, { is_valid: "yes", official_status: "successful" })
    const err = await catchErr(makeClient().verifyNotification({ order_id: "1", uuid: UUID, status: "successful", hash: "h" }))
    expect(err.kind).toBe("invalid_response")
    expect(err.field).toBe("is_valid")
    expect(err.endpoint).toBe("verifyNotification")
    expect(err.retryable).toBe(false)
    expect(calls).toHaveLength(1)
  })

  it("saleInfo and saleInfoTransaction: loose objects", async () => {
    on("POST", "/api/sale/info", 200, { anything: { nested: true } })
    on("POST", "/api/sale/info/transaction", 200, { tx: 1 })
    const client = makeClient()
    expect(await client.saleInfo({ order_id: "1" })).toEqual({ anything: { nested: true } })
    expect(await client.saleInfoTransaction({ transaction_id: "t" })).toEqual({ tx: 1 })
    expect(JSON.parse(calls[0].body!)).toEqual({ order_id: "1" })
    expect(JSON.parse(calls[1].body!)).toEqual({ transaction_id: "t" })
  })

  it("hostedCheckoutUrl and buildQuickCheckoutForm on the client", () => {
    const client = makeClient()
    expect(client.hostedCheckoutUrl("my product", 7, { successUrl: "https://s.example/ok?a=1" })).toBe(
      `${BASE}/checkout/my%20product/7?success_url=https%3A%2F%2Fs.example%2Fok%3Fa%3D1`
    )
    const form = client.buildQuickCheckoutForm({
      amount: 200,
      currency: "try",
      orderId: "o-1",
      description: "Order o-1",
      successUrl: "https://s.example/ok",
      cancelUrl: "https://s.example/cancel",
      ts: 1700000000,
    })
    expect(form.action).toBe(`${BASE}/checkout/quick`)
    expect(form.fields.api_id).toBe("77")
    const { signature, ...rest } = form.fields
    expect(signature).toBe(signQuickCheckout(rest, KEY))
    expect(JSON.stringify(form)).not.toContain(KEY)
    expect(() => makeClient({ apiId: undefined }).buildQuickCheckoutForm({ ...rest, amount: 1, orderId: "x", successUrl: "https://a", cancelUrl: "https://b" } as never)).toThrow(TypeError)
  })

  it("does not expose the key through the client object", () => {
    const client = makeClient()
    expect(JSON.stringify(client)).not.toContain(KEY)
    expect(inspect(client, { showHidden: true, depth: 5 })).not.toContain(KEY)
    expect(Object.values(client).map(String).join(" ")).not.toContain(KEY)
  })
})

describe("OdemeClient errors and retries", () => {
  it("schema mismatch names the field", async () => {
    on("GET", `/api/pay/bank_transfer/uuid/${UUID}`, 200, { result: { ...transfer, sale_status: 7 } })
    const err = await catchErr(makeClient().getTransferByUuid(UUID))
    expect(err.kind).toBe("invalid_response")
    expect(err.field).toBe("result.sale_status")
    expect(err.endpoint).toBe("getTransferByUuid")
    expect(err.path).toBe("/api/pay/bank_transfer/uuid/{uuid}")
    expect(err.message).toContain("getTransferByUuid")
    expect(err.message).toContain("result.sale_status")
    expect(calls).toHaveLength(1)
    expectNoKey(err)
  })

  it("non-JSON body is invalid_response", async () => {
    on("GET", "/api/pay/bank_transfer/bank-group/list", 200, "<html>oops</html>")
    const err = await catchErr(makeClient().listBankGroups())
    expect(err.kind).toBe("invalid_response")
    expect(err.status).toBe(200)
    expectNoKey(err)
  })

  it("bad payment_id format is invalid_response and carries the service message", async () => {
    on("POST", "/api/pay/bank_transfer", 200, { message: "bank not active", payment_id: "nope", order_id: "1" })
    const err = await catchErr(
      makeClient().createBankTransfer({ bank_id: 1, amount: "5", currency: "EUR", order_id: "1", customer_name: "a", client_ip: "b" })
    )
    expect(err.kind).toBe("invalid_response")
    expect(err.field).toBe("payment_id")
    expect(err.serviceMessage).toBe("bank not active")
  })

  it("4xx: no retry, service message parsed and truncated", async () => {
    on("POST", "/api/pay/bank_transfer", 400, { message: "bank_id is unknown" })
    const err = await catchErr(
      makeClient().createBankTransfer({ bank_id: 9, amount: 1, currency: "TRY", order_id: "1", customer_name: "a", client_ip: "b" })
    )
    expect(err.kind).toBe("http")
    expect(err.status).toBe(400)
    expect(err.serviceMessage).toBe("bank_id is unknown")
    expect(err.retryable).toBe(false)
    expect(err.message).toBe("Odeme createBankTransfer failed: HTTP 400: bank_id is unknown")
    expect(calls).toHaveLength(1)

    on("GET", "/api/pay/bank_transfer/get/banks/1", 404, { error: "x".repeat(2000) })
    const err2 = await catchErr(makeClient().listBanks(1))
    expect(err2.status).toBe(404)
    expect(err2.retryable).toBe(false)
    expect(err2.serviceMessage!.length).toBeLessThanOrEqual(500)
    expect(calls).toHaveLength(2)
  })

  it("5xx then success on a GET is retried", async () => {
    on("GET", "/api/pay/bank_transfer/bank-group/list", 502, { message: "bad gateway" })
    on("GET", "/api/pay/bank_transfer/bank-group/list", 500, "")
    on("GET", "/api/pay/bank_transfer/bank-group/list", 200, { result: [] })
    const groups = await makeClient().listBankGroups()
    expect(groups).toEqual([])
    expect(calls).toHaveLength(3)
    expect(lines.some((l) => l.includes("attempt=3"))).toBe(true)
  })

  it("5xx on a GET gives up after retries+1 attempts with retryable true", async () => {
    on("GET", `/api/pay/bank_transfer/uuid/${UUID}`, 503, { message: "down" }, 5)
    const err = await catchErr(makeClient({ retries: 1 }).getTransferByUuid(UUID))
    expect(calls).toHaveLength(2)
    expect(err.kind).toBe("http")
    expect(err.status).toBe(503)
    expect(err.retryable).toBe(true)
    expect(err.attempts).toBe(2)
    expect(err.serviceMessage).toBe("down")
  })

  it("429 is retried on a GET", async () => {
    on("GET", "/api/pay/bank_transfer/get/banks/2", 429, { message: "slow down" })
    on("GET", "/api/pay/bank_transfer/get/banks/2", 200, { result: [] })
    expect(await makeClient().listBanks(2)).toEqual([])
    expect(calls).toHaveLength(2)
  })

  it("5xx on createBankTransfer is NOT retried", async () => {
    on("POST", "/api/pay/bank_transfer", 500, { message: "internal" }, 3)
    const err = await catchErr(
      makeClient().createBankTransfer({ bank_id: 1, amount: 1, currency: "TRY", order_id: "1", customer_name: "a", client_ip: "b" })
    )
    expect(calls).toHaveLength(1)
    expect(err.kind).toBe("http")
    expect(err.status).toBe(500)
    expect(err.retryable).toBe(false)
  })

  it("5xx on createCardPayment is NOT retried", async () => {
    on("POST", "/api/pay/credit_card", 503, { message: "x" }, 3)
    const err = await catchErr(makeClient().createCardPayment({ a: 1 }))
    expect(calls).toHaveLength(1)
    expect(err.retryable).toBe(false)
  })

  it("verify is retried on 503", async () => {
    on("POST", "/api/sale/webhook/verify", 503, { message: "busy" })
    on("POST", "/api/sale/webhook/verify", 200, { is_valid: true, official_status: "successful" })
    const res = await makeClient().verifyNotification({ order_id: "1", uuid: UUID, status: "successful", hash: "h" })
    expect(res.is_valid).toBe(true)
    expect(calls).toHaveLength(2)
    expect(calls[0].body).toBe(calls[1].body)
  })

  it("timeout on createBankTransfer: kind timeout, retryable false, single attempt", async () => {
    on("POST", "/api/pay/bank_transfer", 200, { message: "successful", payment_id: UUID, order_id: "1" }, 3).delay(300)
    const err = await catchErr(
      makeClient({ timeoutMs: 40 }).createBankTransfer({
        bank_id: 1,
        amount: 1,
        currency: "TRY",
        order_id: "1",
        customer_name: "a",
        client_ip: "b",
      })
    )
    expect(err.kind).toBe("timeout")
    expect(err.retryable).toBe(false)
    expect(err.message).toContain("outcome unknown")
    expect(err.attempts).toBe(1)
    expectNoKey(err)
  })

  it("timeout on a GET is retried and then reported retryable", async () => {
    pool
      .intercept({ method: "GET", path: "/api/pay/bank_transfer/bank-group/list" })
      .reply(200, { result: [] }, JSON_HEADERS)
      .delay(300)
      .times(2)
    const err = await catchErr(makeClient({ timeoutMs: 40, retries: 1 }).listBankGroups())
    expect(err.kind).toBe("timeout")
    expect(err.retryable).toBe(true)
    expect(err.attempts).toBe(2)
  })

  it("network error: kind network, retried on GET, message redacted", async () => {
    pool
      .intercept({ method: "GET", path: "/api/pay/bank_transfer/bank-group/list" })
      .replyWithError(Object.assign(new Error(`socket hang up api-key=${KEY}`), { code: "ECONNRESET" }))
      .times(3)
    const err = await catchErr(makeClient().listBankGroups())
    expect(err.kind).toBe("network")
    expect(err.code).toBe("ECONNRESET")
    expect(err.attempts).toBe(3)
    expect(err.detail).toContain("[redacted]")
    expectNoKey(err)
  })

  it("network error on create is not retried", async () => {
    pool
      .intercept({ method: "POST", path: "/api/pay/bank_transfer" })
      .replyWithError(Object.assign(new Error("reset"), { code: "ECONNRESET" }))
      .times(3)
    const err = await catchErr(
      makeClient().createBankTransfer({ bank_id: 1, amount: 1, currency: "TRY", order_id: "1", customer_name: "a", client_ip: "b" })
    )
    expect(err.kind).toBe("network")
    expect(err.retryable).toBe(false)
    expect(err.attempts).toBe(1)
  })

  it("service message echoing the key is redacted for every kind", async () => {
    on("GET", "/api/pay/bank_transfer/get/banks/1", 401, { message: `invalid api-key ${KEY}` })
    const httpErr = await catchErr(makeClient().listBanks(1))
    expect(httpErr.serviceMessage).toBe("invalid api-key [redacted]")
    expectNoKey(httpErr)

    on("GET", "/api/pay/bank_transfer/get/banks/2", 200, { result: [{ bta_id: KEY }] })
    const invalidErr = await catchErr(makeClient().listBanks(2))
    expect(invalidErr.kind).toBe("invalid_response")
    expectNoKey(invalidErr)

    on("POST", "/api/pay/bank_transfer", 200, { message: KEY, payment_id: KEY, order_id: "1" })
    const invalidErr2 = await catchErr(
      makeClient().createBankTransfer({ bank_id: 1, amount: 1, currency: "TRY", order_id: "1", customer_name: "a", client_ip: "b" })
    )
    expect(invalidErr2.serviceMessage).toBe("[redacted]")
    expectNoKey(invalidErr2)
  })

  it("toJSON returns only the safe fields", async () => {
    on("GET", "/api/pay/bank_transfer/get/banks/1", 400, { message: "nope" })
    const err = await catchErr(makeClient().listBanks(1))
    expect(Object.keys(err.toJSON()).sort()).toEqual(
      ["attempts", "endpoint", "kind", "message", "method", "name", "path", "retryable", "serviceMessage", "status"].sort()
    )
    expect(err.toJSON().path).toBe("/api/pay/bank_transfer/get/banks/{bank_group_id}")
  })

  it("constructor validates options without echoing the key", () => {
    expect(() => new OdemeClient({ baseUrl: "ftp://x", apiKey: KEY })).toThrow(TypeError)
    expect(() => new OdemeClient({ baseUrl: BASE, apiKey: "" })).toThrow(TypeError)
    try {
      new OdemeClient({ baseUrl: "not a url", apiKey: KEY })
    } catch (e) {
      expect(String(e)).not.toContain(KEY)
    }
  })

  it("close() closes an owned agent and is idempotent; a closed client fails cleanly", async () => {
    const client = new OdemeClient({ baseUrl: BASE, apiKey: KEY })
    await client.close()
    await client.close()
    const err = await catchErr(client.listBankGroups())
    expect(err.kind).toBe("network")
    expect(err.retryable).toBe(false)
    // a passed dispatcher is not closed by the client
    const shared = makeClient()
    await shared.close()
    on("GET", "/api/pay/bank_transfer/bank-group/list", 200, { result: [] })
    expect(await makeClient().listBankGroups()).toEqual([])
  })
})
