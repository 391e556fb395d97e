import { OdemeClient } from "../index"
import { BASE, KEY, TRANSFER, UUID, catchErr, expectNoKey, useMockService } from "./support/mock-service"

const svc = useMockService()

describe("OdemeClient errors", () => {
  it("schema mismatch names the field", async () => {
    svc.on("GET", `/api/pay/bank_transfer/uuid/${UUID}`, 200, { result: { ...TRANSFER, sale_status: 7 } })
    const err = await catchErr(svc.makeClient().getTransferByUuid(UUID))
    expect(err.kind).toBe("invalid_response")
    expect(err.field).toBe("result.sale_status")
    expect(err.endpoint).toBe("getTransferByUuid")
    expect(err.path).toBe("/api/pay/bank_transfer/uuid/{uuid}")
    expect(err.message).toContain("getTransferByUuid")
    expect(err.message).toContain("result.sale_status")
    expect(svc.calls).toHaveLength(1)
    expectNoKey(err, svc.lines)
  })

  it("a 2xx body over maxResponseBytes is invalid_response, a body at the limit is read", async () => {
    const body = JSON.stringify({ result: TRANSFER })
    svc.on("GET", `/api/pay/bank_transfer/uuid/${UUID}`, 200, body, 2)
    const err = await catchErr(svc.makeClient({ maxResponseBytes: body.length - 1 }).getTransferByUuid(UUID))
    expect(err).toMatchObject({ kind: "invalid_response", status: 200 })
    expect(err.message).toContain("too large")
    expect(await svc.makeClient({ maxResponseBytes: body.length }).getTransferByUuid(UUID)).toMatchObject({ br_name: TRANSFER.br_name })
  })

  it("non-JSON body is invalid_response", async () => {
    svc.on("GET", "/api/pay/bank_transfer/bank-group/list", 200, "<html>oops</html>")
    const err = await catchErr(svc.makeClient().listBankGroups())
    expect(err.kind).toBe("invalid_response")
    expect(err.status).toBe(200)
    expectNoKey(err, svc.lines)
  })

  it("bad payment_id format is invalid_response and carries the service message", async () => {
    svc.on("POST", "/api/pay/bank_transfer", 200, { message: "bank not active", payment_id: "nope", order_id: "1" })
    const err = await catchErr(
      svc.makeClient().createBankTransfer({ bank_id: 1, amount: "5", currency: "EUR", order_id: "1", customer_name: "a", client_ip: "b" })
    )
    expect(err.kind).toBe("invalid_response")
    expect(err.field).toBe("payment_id")
    expect(err.serviceMessage).toBe("bank not active")
  })

  it("4xx: no retry, service message parsed and truncated", async () => {
    svc.on("POST", "/api/pay/bank_transfer", 400, { message: "bank_id is unknown" })
    const err = await catchErr(
      svc.makeClient().createBankTransfer({ bank_id: 9, amount: 1, currency: "TRY", order_id: "1", customer_name: "a", client_ip: "b" })
    )
    expect(err.kind).toBe("http")
    expect(err.status).toBe(400)
    expect(err.serviceMessage).toBe("bank_id is unknown")
    expect(err.retryable).toBe(false)
    expect(err.message).toBe("Odeme createBankTransfer failed: HTTP 400: bank_id is unknown")
    expect(svc.calls).toHaveLength(1)

    svc.on("GET", "/api/pay/bank_transfer/get/banks/1", 404, { error: "x".repeat(2000) })
    const err2 = await catchErr(svc.makeClient().listBanks(1))
    expect(err2.status).toBe(404)
    expect(err2.retryable).toBe(false)
    expect(err2.serviceMessage!.length).toBeLessThanOrEqual(500)
    expect(svc.calls).toHaveLength(2)
  })

  it("service message echoing the key is redacted for every kind", async () => {
    svc.on("GET", "/api/pay/bank_transfer/get/banks/1", 401, { message: `invalid api-key ${KEY}` })
    const httpErr = await catchErr(svc.makeClient().listBanks(1))
    expect(httpErr.serviceMessage).toBe("invalid api-key [redacted]")
    expectNoKey(httpErr, svc.lines)

    svc.on("GET", "/api/pay/bank_transfer/get/banks/2", 200, { result: [{ bta_id: KEY }] })
    const invalidErr = await catchErr(svc.makeClient().listBanks(2))
    expect(invalidErr.kind).toBe("invalid_response")
    expectNoKey(invalidErr, svc.lines)

    svc.on("POST", "/api/pay/bank_transfer", 200, { message: KEY, payment_id: KEY, order_id: "1" })
    const invalidErr2 = await catchErr(
      svc.makeClient().createBankTransfer({ bank_id: 1, amount: 1, currency: "TRY", order_id: "1", customer_name: "a", client_ip: "b" })
    )
    expect(invalidErr2.serviceMessage).toBe("[redacted]")
    expectNoKey(invalidErr2, svc.lines)
  })

  it("toJSON returns only the safe fields", async () => {
    svc.on("GET", "/api/pay/bank_transfer/get/banks/1", 400, { message: "nope" })
    const err = await catchErr(svc.makeClient().listBanks(1))
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
    const shared = svc.makeClient()
    await shared.close()
    svc.on("GET", "/api/pay/bank_transfer/bank-group/list", 200, { result: [] })
    expect(await svc.makeClient().listBankGroups()).toEqual([])
  })
})
