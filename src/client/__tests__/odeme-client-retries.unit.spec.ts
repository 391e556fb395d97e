import { ODEME_ENDPOINTS, OdemeClient } from "../index"
import { startLocalService, json, type LocalService } from "./support/local-service"
import { CREATE_INPUT, KEY, UUID, VERIFY_INPUT, catchErr, captureLogs, expectNoKey, useMockService } from "./support/mock-service"

const svc = useMockService()

/** Every endpoint called once with a valid input, by its name in ODEME_ENDPOINTS. */
const CALLS: Record<keyof typeof ODEME_ENDPOINTS, (c: OdemeClient) => Promise<unknown>> = {
  listBankGroups: (c) => c.listBankGroups(),
  listBanks: (c) => c.listBanks(3),
  createBankTransfer: (c) => c.createBankTransfer(CREATE_INPUT),
  getTransferByTrackingNo: (c) => c.getTransferByTrackingNo("123"),
  getTransferByUuid: (c) => c.getTransferByUuid(UUID),
  createCardPayment: (c) => c.createCardPayment({ amount: "1.00" }),
  verifyNotification: (c) => c.verifyNotification(VERIFY_INPUT),
  saleInfo: (c) => c.saleInfo({ order_id: "1" }),
  saleInfoTransaction: (c) => c.saleInfoTransaction({ transaction_id: "t" }),
}

describe("which calls are retried", () => {
  it("only the two creating calls are not retry-safe", () => {
    const notSafe = Object.values(ODEME_ENDPOINTS)
      .filter((e) => !e.retrySafe)
      .map((e) => e.name)
    expect(notSafe.sort()).toEqual(["createBankTransfer", "createCardPayment"])
    for (const e of Object.values(ODEME_ENDPOINTS)) if (e.method === "GET") expect(e.retrySafe).toBe(true)
  })

  // Against a real socket: the 503 answer is what undici's retry interceptor sees.
  let service: LocalService
  afterEach(() => service?.close())

  it.each(Object.keys(CALLS) as (keyof typeof CALLS)[])("%s after a 503: retried only when retry-safe", async (name) => {
    service = await startLocalService((_req, res, n) => json(res, 503, { message: `busy ${n}` }))
    const client = new OdemeClient({ baseUrl: service.url, apiKey: KEY, retries: 2, retryBaseDelayMs: 1 })
    const err = await catchErr(CALLS[name](client))
    await client.close()
    const safe = ODEME_ENDPOINTS[name].retrySafe
    expect(service.seen).toHaveLength(safe ? 3 : 1)
    expect(err).toMatchObject({ kind: "http", status: 503, retryable: safe, attempts: safe ? 3 : 1, serviceMessage: safe ? "busy 3" : "busy 1" })
  })
})

describe("retries after an answer (real socket)", () => {
  let service: LocalService
  afterEach(() => service?.close())

  it("5xx then success on a GET is retried", async () => {
    service = await startLocalService((_req, res, n) => {
      if (n === 1) json(res, 502, { message: "bad gateway" })
      else if (n === 2) res.writeHead(500).end()
      else json(res, 200, { result: [] })
    })
    const log = captureLogs()
    const client = new OdemeClient({ baseUrl: service.url, apiKey: KEY, retryBaseDelayMs: 1, logger: log.logger })
    expect(await client.listBankGroups()).toEqual([])
    await client.close()
    expect(service.seen).toHaveLength(3)
    expect(log.lines.some((l) => /attempt 1 failed \(HTTP 502\); retrying in \d+ms/.test(l))).toBe(true)
    expect(log.lines.some((l) => /listBankGroups GET .* status=200 attempt=3 durationMs=\d+/.test(l))).toBe(true)
    expect(log.lines.join("\n")).not.toContain(KEY)
  })

  it("a logger above debug gets the retry warnings but no per-call trace", async () => {
    service = await startLocalService((_req, res, n) => (n === 1 ? json(res, 502, { message: "bad gateway" }) : json(res, 200, { result: [] })))
    const log = captureLogs()
    const asked: string[] = []
    const logger = { ...log.logger, shouldLog: (level: "debug") => (asked.push(level), false) }
    const client = new OdemeClient({ baseUrl: service.url, apiKey: KEY, retryBaseDelayMs: 1, logger })
    expect(await client.listBankGroups()).toEqual([])
    await client.close()
    expect(asked).toContain("debug")
    expect(log.lines.some((l) => /attempt 1 failed \(HTTP 502\)/.test(l))).toBe(true)
    expect(log.lines.some((l) => /status=200/.test(l))).toBe(false)
  })

  it("5xx on a GET gives up after retries+1 attempts, keeping the last answer's message", async () => {
    service = await startLocalService((_req, res) => json(res, 503, { message: "down" }))
    const client = new OdemeClient({ baseUrl: service.url, apiKey: KEY, retries: 1, retryBaseDelayMs: 1 })
    const err = await catchErr(client.getTransferByUuid(UUID))
    await client.close()
    expect(service.seen).toHaveLength(2)
    expect(err).toMatchObject({ kind: "http", status: 503, retryable: true, attempts: 2, serviceMessage: "down" })
  })

  it("verify is retried on 503 with the same body", async () => {
    service = await startLocalService((_req, res, n) =>
      n === 1 ? json(res, 503, { message: "busy" }) : json(res, 200, { is_valid: true, official_status: "successful" })
    )
    const client = new OdemeClient({ baseUrl: service.url, apiKey: KEY, retryBaseDelayMs: 1 })
    const res = await client.verifyNotification(VERIFY_INPUT)
    await client.close()
    expect(res.is_valid).toBe(true)
    expect(service.seen).toHaveLength(2)
    expect(service.seen[1].body).toBe(service.seen[0].body)
    expect(JSON.parse(service.seen[0].body)).toEqual(VERIFY_INPUT)
  })

  it("429 waits for Retry-After, capped at retryMaxDelayMs", async () => {
    service = await startLocalService((_req, res, n) =>
      n === 1 ? json(res, 429, { message: "slow down" }, { "retry-after": "30" }) : json(res, 200, { result: [] })
    )
    const client = new OdemeClient({ baseUrl: service.url, apiKey: KEY, retryBaseDelayMs: 1, retryMaxDelayMs: 300 })
    expect(await client.listBanks(2)).toEqual([])
    await client.close()
    expect(service.seen).toHaveLength(2)
    const gap = service.seen[1].at - service.seen[0].at
    expect(gap).toBeGreaterThanOrEqual(250)
    expect(gap).toBeLessThan(5_000)
  })
})

describe("retries after a connection failure (MockAgent)", () => {
  const reset = (message: string) => Object.assign(new Error(message), { code: "ECONNRESET" })

  it("network error: kind network, retried on GET, message redacted", async () => {
    svc.pool
      .intercept({ method: "GET", path: "/api/pay/bank_transfer/bank-group/list" })
      .replyWithError(reset(`socket hang up api-key=${KEY}`))
      .times(3)
    const err = await catchErr(svc.makeClient().listBankGroups())
    expect(err).toMatchObject({ kind: "network", code: "ECONNRESET", attempts: 3, retryable: true })
    expect(err.detail).toContain("[redacted]")
    expectNoKey(err, svc.lines)
  })

  it("a reset then an answer on verify succeeds on the second attempt", async () => {
    svc.pool.intercept({ method: "POST", path: "/api/sale/webhook/verify" }).replyWithError(reset("reset"))
    svc.on("POST", "/api/sale/webhook/verify", 200, { is_valid: true, official_status: "successful" })
    expect((await svc.makeClient().verifyNotification(VERIFY_INPUT)).is_valid).toBe(true)
    expect(svc.calls).toHaveLength(1)
  })

  it("network error on create is sent once and not retryable: it may have arrived", async () => {
    svc.pool.intercept({ method: "POST", path: "/api/pay/bank_transfer" }).replyWithError(reset("reset")).times(3)
    svc.on("POST", "/api/pay/bank_transfer", 200, { message: "successful", payment_id: UUID, order_id: "1" })
    const err = await catchErr(svc.makeClient().createBankTransfer(CREATE_INPUT))
    expect(err).toMatchObject({ kind: "network", retryable: false, attempts: 1 })
    expect(svc.calls).toHaveLength(0)
  })

  it("a create that never left (connection refused) is retryable for the caller, still sent once", async () => {
    const refused = Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" })
    svc.pool.intercept({ method: "POST", path: "/api/pay/bank_transfer" }).replyWithError(refused)
    svc.on("POST", "/api/pay/bank_transfer", 200, { message: "successful", payment_id: UUID, order_id: "1" })
    const err = await catchErr(svc.makeClient().createBankTransfer(CREATE_INPUT))
    expect(err).toMatchObject({ kind: "network", code: "ECONNREFUSED", retryable: true, attempts: 1 })
    expect(svc.calls).toHaveLength(0)
  })
})
