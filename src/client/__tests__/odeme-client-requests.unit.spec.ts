import { inspect } from "node:util"
import { TransferSaleStatus, isVerifiedSuccessful, signQuickCheckout } from "../index"
import { BASE, KEY, TRANSFER, UUID, catchErr, useMockService } from "./support/mock-service"

const svc = useMockService()

describe("OdemeClient requests", () => {
  it("listBankGroups: GET, headers, coercion", async () => {
    svc.on("GET", "/api/pay/bank_transfer/bank-group/list", 200, { result: [{ id: "3", name: "Havale" }] })
    const client = svc.makeClient()
    const groups = await client.listBankGroups()
    expect(groups).toEqual([{ id: 3, name: "Havale" }])
    expect(svc.calls).toHaveLength(1)
    expect(svc.calls[0].method).toBe("GET")
    expect(svc.calls[0].headers["api-key"]).toBe(KEY)
    expect(svc.calls[0].headers["accept"]).toBe("application/json")
    expect(svc.calls[0].headers["content-type"]).toBeUndefined()
    expect(svc.lines.some((l) => /listBankGroups.*status=200.*attempt=1.*durationMs=\d+/.test(l))).toBe(true)
    expect(svc.lines.join("\n")).not.toContain(KEY)
  })

  it("listBanks: GET with group id, default description", async () => {
    svc.on("GET", "/api/pay/bank_transfer/get/banks/5", 200, {
      result: [
        { bta_id: "12", bta_name: "Ziraat", bta_fullname: "Shop Ltd", bta_iban: "TR12 3456", bta_description: "Ref ORD" },
        { bta_id: 13, bta_name: "Garanti", bta_fullname: "Shop Ltd", bta_iban: "TR99" },
      ],
    })
    const banks = await svc.makeClient().listBanks(5)
    expect(banks[0]).toEqual({ bta_id: 12, bta_name: "Ziraat", bta_fullname: "Shop Ltd", bta_iban: "TR12 3456", bta_description: "Ref ORD" })
    expect(banks[1].bta_description).toBe("")
    expect(svc.calls[0].headers["api-key"]).toBe(KEY)
  })

  it("createBankTransfer: POST JSON body with formatted amount", async () => {
    svc.on("POST", "/api/pay/bank_transfer", 200, { message: "successful", payment_id: UUID, order_id: 1001 })
    const input = {
      bank_id: 12,
      amount: 200,
      currency: "TRY" as const,
      order_id: "1001",
      customer_name: "Ada Lovelace",
      client_ip: "203.0.113.5",
      customer_email: "ada@example.com",
      sandbox_result: "pending" as const,
    }
    const res = await svc.makeClient().createBankTransfer(input)
    expect(res).toEqual({ message: "successful", payment_id: UUID, order_id: "1001" })
    expect(svc.calls[0].method).toBe("POST")
    expect(svc.calls[0].headers["content-type"]).toBe("application/json")
    expect(svc.calls[0].headers["api-key"]).toBe(KEY)
    expect(JSON.parse(svc.calls[0].body!)).toEqual({ ...input, amount: "200.00" })
  })

  it("createBankTransfer accepts a BigNumber-like amount", async () => {
    svc.on("POST", "/api/pay/bank_transfer", 200, { message: "successful", payment_id: UUID, order_id: "A1" })
    await svc.makeClient().createBankTransfer({
      bank_id: 1,
      amount: { raw: { value: "99.999" }, toString: () => "99.999" },
      currency: "USD",
      order_id: "A1",
      customer_name: "X Y",
      client_ip: "::1",
    })
    const body = JSON.parse(svc.calls[0].body!)
    expect(body.amount).toBe("100.00")
    expect(body).not.toHaveProperty("customer_email")
    expect(body).not.toHaveProperty("sandbox_result")
  })

  it("createBankTransfer rejects a bad input without calling the service", async () => {
    const client = svc.makeClient()
    const base = { bank_id: 1, amount: 10, currency: "TRY" as const, order_id: "o", customer_name: "n", client_ip: "1.1.1.1" }
    await expect(client.createBankTransfer({ ...base, amount: 0 })).rejects.toThrow(TypeError)
    await expect(client.createBankTransfer({ ...base, currency: "GBP" as never })).rejects.toThrow(TypeError)
    await expect(client.createBankTransfer({ ...base, bank_id: 1.5 })).rejects.toThrow(TypeError)
    expect(svc.calls).toHaveLength(0)
  })

  it("getTransferByTrackingNo: control path, sandbox_result query, coercion", async () => {
    svc.on("GET", "/api/pay/bank_transfer/control/TR%2F1?sandbox_result=failed", 200, { result: TRANSFER })
    const rec = await svc.makeClient().getTransferByTrackingNo("TR/1", { sandboxResult: "failed" })
    expect(rec.br_tracking_no).toBe("123456")
    expect(rec.br_price).toBe(200.5)
    expect(rec.sale_status).toBe(TransferSaleStatus.APPROVED)
    expect(rec.sale_date).toBe(1700000000)
    expect((rec as Record<string, unknown>).extra_field).toBe("kept")
  })

  it("getTransferByTrackingNo without sandbox result has no query", async () => {
    svc.on("GET", "/api/pay/bank_transfer/control/998877", 200, { result: { ...TRANSFER, sale_status: 0 } })
    const rec = await svc.makeClient().getTransferByTrackingNo("998877")
    expect(rec.sale_status).toBe(TransferSaleStatus.PENDING)
    expect(svc.calls[0].path).toBe("/api/pay/bank_transfer/control/998877")
  })

  it("getTransferByUuid: uuid path", async () => {
    svc.on("GET", `/api/pay/bank_transfer/uuid/${UUID}`, 200, { result: { ...TRANSFER, sale_status: 2 } })
    const rec = await svc.makeClient().getTransferByUuid(UUID)
    expect(rec.sale_status).toBe(TransferSaleStatus.FAILED)
    expect(svc.calls[0].headers["api-key"]).toBe(KEY)
  })

  it("createCardPayment: POST body passed through, redirect_url required", async () => {
    svc.on("POST", "/api/pay/credit_card", 200, { redirect_url: "https://sandbox.example/pay/abc", uuid: UUID, order_id: 55, foo: 1 })
    const rec = await svc.makeClient().createCardPayment({ amount: "10.00", order_id: "55" })
    expect(rec.redirect_url).toBe("https://sandbox.example/pay/abc")
    expect(rec.order_id).toBe("55")
    expect((rec as Record<string, unknown>).foo).toBe(1)
    expect(JSON.parse(svc.calls[0].body!)).toEqual({ amount: "10.00", order_id: "55" })
    expect(svc.calls[0].headers["content-type"]).toBe("application/json")
  })

  it("verifyNotification: an is_valid that is not a boolean is an invalid answer, never a payment", async () => {
    const input = { order_id: "1001", uuid: UUID, status: "successful", hash: "abc" }
    for (const isValid of [1, "1", "true", "false"]) {
      svc.on("POST", "/api/sale/webhook/verify", 200, { is_valid: isValid, official_status: "successful" })
      await expect(svc.makeClient().verifyNotification(input)).rejects.toMatchObject({ kind: "invalid_response", status: 200, field: "is_valid" })
    }
  })

  it("verifyNotification: POST body, boolean coercion", async () => {
    svc.on("POST", "/api/sale/webhook/verify", 200, {
      success: "true",
      is_valid: true,
      payment_confirmed: "1",
      official_status: "successful",
      status_match: "false",
      hash_match: 0,
      order_id: 1001,
      uuid: UUID,
      mode: "quick_checkout_fallback",
    })
    const input = { order_id: "1001", uuid: UUID, status: "successful", hash: "abc" }
    const res = await svc.makeClient().verifyNotification(input)
    expect(JSON.parse(svc.calls[0].body!)).toEqual(input)
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

  it("verifyNotification: an unknown boolean string is invalid_response", async () => {
    svc.on("POST", "/api/sale/webhook/verify", 200, { is_valid: "yes", official_status: "successful" })
    const err = await catchErr(svc.makeClient().verifyNotification({ order_id: "1", uuid: UUID, status: "successful", hash: "h" }))
    expect(err.kind).toBe("invalid_response")
    expect(err.field).toBe("is_valid")
    expect(err.endpoint).toBe("verifyNotification")
    expect(err.retryable).toBe(false)
    expect(svc.calls).toHaveLength(1)
  })

  it("saleInfo and saleInfoTransaction: loose objects", async () => {
    svc.on("POST", "/api/sale/info", 200, { anything: { nested: true } })
    svc.on("POST", "/api/sale/info/transaction", 200, { tx: 1 })
    const client = svc.makeClient()
    expect(await client.saleInfo({ order_id: "1" })).toEqual({ anything: { nested: true } })
    expect(await client.saleInfoTransaction({ transaction_id: "t" })).toEqual({ tx: 1 })
    expect(JSON.parse(svc.calls[0].body!)).toEqual({ order_id: "1" })
    expect(JSON.parse(svc.calls[1].body!)).toEqual({ transaction_id: "t" })
  })

  it("hostedCheckoutUrl and buildQuickCheckoutForm on the client", () => {
    const client = svc.makeClient()
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
    expect(() =>
      svc
        .makeClient({ apiId: undefined })
        .buildQuickCheckoutForm({ ...rest, amount: 1, orderId: "x", successUrl: "https://a", cancelUrl: "https://b" } as never)
    ).toThrow(TypeError)
  })

  it("does not expose the key through the client object", () => {
    const client = svc.makeClient()
    expect(JSON.stringify(client)).not.toContain(KEY)
    expect(inspect(client, { showHidden: true, depth: 5 })).not.toContain(KEY)
    expect(Object.values(client).map(String).join(" ")).not.toContain(KEY)
  })
})
