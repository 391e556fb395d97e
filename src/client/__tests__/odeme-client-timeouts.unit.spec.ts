import { DEFAULT_CONNECTIONS, OdemeClient } from "../index"
import { startLocalService, json, type LocalService } from "./support/local-service"
import { CREATE_INPUT, KEY, UUID, catchErr, expectNoKey, useMockService } from "./support/mock-service"

const svc = useMockService()

describe("timeouts", () => {
  let service: LocalService | undefined
  afterEach(async () => {
    await service?.close()
    service = undefined
  })

  it("a create that times out is 'outcome unknown': kind timeout, not retryable, one attempt", async () => {
    // MockAgent has no undici timeouts: only the call's AbortSignal can end this.
    svc.on("POST", "/api/pay/bank_transfer", 200, { message: "successful", payment_id: UUID, order_id: "1" }, 3).delay(1_000)
    const started = Date.now()
    const err = await catchErr(svc.makeClient({ timeoutMs: 60 }).createBankTransfer(CREATE_INPUT))
    expect(Date.now() - started).toBeLessThan(800)
    expect(err).toMatchObject({ kind: "timeout", retryable: false, attempts: 1, code: "TIMEOUT" })
    expect(err.message).toContain("outcome unknown")
    expectNoKey(err, svc.lines)
  })

  it("the AbortSignal bounds the whole answer, not only its head or the gap between chunks", async () => {
    // Head at once, then a chunk every 40 ms for ~2.4 s: undici's headers/body timeouts (600 ms) never fire.
    // 600 ms, not less: on a busy machine (test files run two at a time) the head alone may take 200 ms,
    // and this test is about a timeout that comes after the head.
    service = await startLocalService((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" })
      let i = 0
      const body = JSON.stringify({ message: "successful", payment_id: UUID, order_id: "1", pad: " ".repeat(120) })
      const timer = setInterval(() => {
        if (res.destroyed) return clearInterval(timer)
        res.write(body.slice(i, i + 3))
        i += 3
        if (i >= body.length) {
          clearInterval(timer)
          res.end()
        }
      }, 40)
    })
    const client = new OdemeClient({ baseUrl: service.url, apiKey: KEY, timeoutMs: 600 })
    const started = Date.now()
    const err = await catchErr(client.createBankTransfer(CREATE_INPUT))
    await client.close()
    // Ended by the signal, well before the answer's last chunk.
    expect(Date.now() - started).toBeLessThan(1_800)
    expect(err).toMatchObject({ kind: "timeout", retryable: false, code: "TIMEOUT", status: 200 })
    expect(service.seen).toHaveLength(1)
  })

  // undici's headersTimeout runs on a coarse timer (up to about a second late), hence the slow test.
  it("a GET whose head is late hits undici's headersTimeout, is retried, then reported retryable", async () => {
    service = await startLocalService(() => undefined)
    const client = new OdemeClient({ baseUrl: service.url, apiKey: KEY, timeoutMs: 150, retries: 1, retryBaseDelayMs: 1, retryMaxDelayMs: 300 })
    const err = await catchErr(client.listBankGroups())
    await client.close()
    expect(service.seen).toHaveLength(2)
    expect(err).toMatchObject({ kind: "timeout", retryable: true, attempts: 2, code: "UND_ERR_HEADERS_TIMEOUT" })
  })

  it("a create whose head is late is sent once", async () => {
    service = await startLocalService(() => undefined)
    const client = new OdemeClient({ baseUrl: service.url, apiKey: KEY, timeoutMs: 150, retries: 2, retryBaseDelayMs: 1 })
    const err = await catchErr(client.createBankTransfer(CREATE_INPUT))
    await new Promise((r) => setTimeout(r, 100))
    await client.close()
    expect(service.seen).toHaveLength(1)
    expect(err).toMatchObject({ kind: "timeout", retryable: false, attempts: 1 })
    expect(err.message).toContain("outcome unknown")
  })
})

describe("connections", () => {
  let service: LocalService | undefined
  afterEach(async () => {
    await service?.close()
    service = undefined
  })

  async function peakInFlight(parallel: number, connections?: number): Promise<number> {
    service = await startLocalService((_req, res) => {
      setTimeout(() => json(res, 200, { result: [] }), 80)
    })
    const client = new OdemeClient({ baseUrl: service.url, apiKey: KEY, connections })
    await Promise.all(Array.from({ length: parallel }, () => client.listBankGroups()))
    await client.close()
    expect(service.seen).toHaveLength(parallel)
    return service.maxInFlight()
  }

  it("the connections option caps the requests in flight to one origin", async () => {
    expect(await peakInFlight(6, 2)).toBe(2)
  })

  it("a larger pool lets every request of a burst go at once", async () => {
    expect(await peakInFlight(24, 24)).toBe(24)
  })

  it(`defaults to ${DEFAULT_CONNECTIONS}`, async () => {
    expect(await peakInFlight(DEFAULT_CONNECTIONS + 4)).toBe(DEFAULT_CONNECTIONS)
  })
})
