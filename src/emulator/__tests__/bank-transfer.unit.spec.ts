import { api, control, emulatorWithReceiver, get, LIVE_KEY, postForm, SANDBOX_KEY, waitFor } from "./helpers"

const transfer = (over: Record<string, unknown> = {}) => ({
  bank_id: 11,
  amount: "150.00",
  currency: "TRY",
  order_id: "order_bt_1",
  customer_name: "Ayşe Yılmaz",
  client_ip: "203.0.113.7",
  customer_email: "ayse@example.com",
  ...over,
})

describe("bank transfer API", () => {
  const env = emulatorWithReceiver()

  it("lists bank groups and banks", async () => {
    const groups = await api(env.emu, "GET", "/api/pay/bank_transfer/bank-group/list")
    expect(groups.status).toBe(200)
    expect(groups.json.result).toEqual([
      { id: 1, name: "Bankalar" },
      { id: 2, name: "Katılım Bankaları" },
    ])
    const banks = await api(env.emu, "GET", "/api/pay/bank_transfer/get/banks/2")
    expect(banks.status).toBe(200)
    expect(banks.json.result.length).toBeGreaterThanOrEqual(2)
    for (const b of banks.json.result) {
      expect(Object.keys(b).sort()).toEqual(["bta_description", "bta_fullname", "bta_iban", "bta_id", "bta_name"])
      expect(b.bta_iban).toMatch(/^TR\d{2}( \d{4}){5} \d{2}$/)
    }
    expect((await api(env.emu, "GET", "/api/pay/bank_transfer/get/banks/99")).status).toBe(404)
  })

  it.each([
    [undefined, 1, "successful"],
    ["successful", 1, "successful"],
    ["pending", 0, undefined],
    ["failed", 2, "failed"],
  ])("creates a sandbox transfer with sandbox_result=%s", async (sandboxResult, saleStatus, hookStatus) => {
    const created = await api(env.emu, "POST", "/api/pay/bank_transfer", transfer({ sandbox_result: sandboxResult }))
    expect(created.status).toBe(200)
    expect(created.json).toEqual({ message: "successful", payment_id: expect.stringMatching(/^[0-9a-f-]{36}$/), order_id: "order_bt_1" })
    const rec = await api(env.emu, "GET", `/api/pay/bank_transfer/uuid/${created.json.payment_id}`)
    expect(rec.status).toBe(200)
    expect(rec.json.result).toEqual({
      br_tracking_no: expect.stringMatching(/^\d+$/),
      br_name: "Ayşe Yılmaz",
      br_price: 150,
      br_currency: "TRY",
      br_bank_name: "Türkiye İş Bankası",
      br_iban: "TR12 0006 4000 0011 2345 6789 01",
      sale_status: saleStatus,
      sale_date: expect.any(Number),
    })
    if (hookStatus) {
      await waitFor(() => env.receiver.received.length === 1)
      expect(env.receiver.received[0].body).toMatchObject({ status: hookStatus, type: "bank_transfer", uuid: created.json.payment_id, amount: 150 })
      const v = await api(env.emu, "POST", "/api/sale/webhook/verify", {
        order_id: "order_bt_1",
        uuid: created.json.payment_id,
        status: hookStatus,
        hash: env.receiver.received[0].body.hash,
      })
      expect(v.json).toMatchObject({ is_valid: true, official_status: hookStatus, mode: "sandbox" })
    } else {
      await new Promise((r) => setTimeout(r, 50))
      expect(env.receiver.received).toHaveLength(0)
    }
  })

  it("moves a pending sandbox transfer with control?sandbox_result and fires the webhook", async () => {
    const { json } = await api(env.emu, "POST", "/api/pay/bank_transfer", transfer({ sandbox_result: "pending" }))
    const uuid = json.payment_id
    const trackingNo = (await api(env.emu, "GET", `/api/pay/bank_transfer/uuid/${uuid}`)).json.result.br_tracking_no
    const before = await api(env.emu, "GET", `/api/pay/bank_transfer/control/${trackingNo}`)
    expect(before.json.result.sale_status).toBe(0)
    const moved = await api(env.emu, "GET", `/api/pay/bank_transfer/control/${trackingNo}?sandbox_result=successful`)
    expect(moved.status).toBe(200)
    expect(moved.json.result.sale_status).toBe(1)
    await waitFor(() => env.receiver.received.length === 1)
    expect(env.receiver.received[0].body).toMatchObject({ uuid, status: "successful", message: "successful", type: "bank_transfer" })
    // a final transfer is not moved again
    const again = await api(env.emu, "GET", `/api/pay/bank_transfer/control/${trackingNo}?sandbox_result=failed`)
    expect(again.json.result.sale_status).toBe(1)
    await new Promise((r) => setTimeout(r, 50))
    expect(env.receiver.received).toHaveLength(1)
  })

  it("does not deduplicate on order_id", async () => {
    await api(env.emu, "POST", "/api/pay/bank_transfer", transfer({ order_id: "dup" }))
    await api(env.emu, "POST", "/api/pay/bank_transfer", transfer({ order_id: "dup" }))
    const all = (await control(env.emu, "/transfers")).result
    expect(all.filter((t: any) => t.order_id === "dup")).toHaveLength(2)
    expect(new Set(all.map((t: any) => t.transfer.br_tracking_no)).size).toBe(2)
  })

  it("counts every request by path until a reset", async () => {
    const { json } = await api(env.emu, "POST", "/api/pay/bank_transfer", transfer({ order_id: "counted" }))
    const path = `/api/pay/bank_transfer/uuid/${json.payment_id}`
    for (let i = 0; i < 3; i++) await api(env.emu, "GET", path)
    expect((await control(env.emu, "/requests/counts?path=/api/pay/bank_transfer/uuid/")).result).toEqual({ [path]: 3 })
    expect((await control(env.emu, "/requests/counts")).result).toEqual(
      expect.objectContaining({ "/api/pay/bank_transfer": expect.any(Number), [path]: 3 })
    )
    await control(env.emu, "/reset", {})
    expect((await control(env.emu, "/requests/counts")).result).toEqual({})
  })

  it("validates the body and names the field", async () => {
    const missing = await api(env.emu, "POST", "/api/pay/bank_transfer", transfer({ customer_name: undefined }))
    expect(missing.status).toBe(400)
    expect(missing.json).toEqual({ success: false, message: expect.stringContaining("customer_name") })
    const badBank = await api(env.emu, "POST", "/api/pay/bank_transfer", transfer({ bank_id: 999 }))
    expect(badBank.status).toBe(400)
    expect(badBank.json.message).toContain("bank_id")
    const gbp = await api(env.emu, "POST", "/api/pay/bank_transfer", transfer({ currency: "GBP" }))
    expect(gbp.json.message).toContain("currency")
    const neg = await api(env.emu, "POST", "/api/pay/bank_transfer", transfer({ amount: "-1" }))
    expect(neg.json.message).toContain("amount")
    const badJson = await api(env.emu, "POST", "/api/pay/bank_transfer", "{not json")
    expect(badJson.status).toBe(400)
    expect(badJson.json.message).toMatch(/JSON/)
    expect((await control(env.emu, "/transfers")).result).toHaveLength(0)
  })

  it("needs api_perm_bank_transfer", async () => {
    await control(env.emu, "/config", { permBankTransfer: false })
    const r = await api(env.emu, "POST", "/api/pay/bank_transfer", transfer())
    expect(r.status).toBe(403)
  })

  // §4.5 rule 2: api_perm_bank_transfer=1 *and* an active callback URL.
  it("needs an active callback URL to create a transfer, and creates nothing without one", async () => {
    await control(env.emu, "/config", { webhookUrl: null })
    const r = await api(env.emu, "POST", "/api/pay/bank_transfer", transfer({ order_id: "no_callback" }))
    expect(r.status).toBe(403)
    expect(r.json.message).toMatch(/callback URL/)
    expect((await control(env.emu, "/transfers")).result).toHaveLength(0)
    await control(env.emu, "/config", { webhookUrl: env.receiver.url })
    expect((await api(env.emu, "POST", "/api/pay/bank_transfer", transfer({ order_id: "with_callback" }))).status).toBe(200)
  })

  it("refuses a sandbox_result on control that is not successful or failed, and moves nothing", async () => {
    const { json } = await api(env.emu, "POST", "/api/pay/bank_transfer", transfer({ sandbox_result: "pending" }))
    const trackingNo = (await api(env.emu, "GET", `/api/pay/bank_transfer/uuid/${json.payment_id}`)).json.result.br_tracking_no
    const r = await api(env.emu, "GET", `/api/pay/bank_transfer/control/${trackingNo}?sandbox_result=pending`)
    expect(r.status).toBe(400)
    expect(r.json.message).toBe(`Invalid parameter "sandbox_result": must be successful or failed`)
    expect((await api(env.emu, "GET", `/api/pay/bank_transfer/uuid/${json.payment_id}`)).json.result.sale_status).toBe(0)
    expect((await api(env.emu, "GET", `/api/pay/bank_transfer/control/999999`)).status).toBe(404)
  })

  // §4.6: the control endpoint takes the tracking number, in sandbox too; the created uuid is for the uuid endpoint.
  it("does not find a sandbox transfer on the control endpoint by its uuid", async () => {
    const { json } = await api(env.emu, "POST", "/api/pay/bank_transfer", transfer({ sandbox_result: "pending" }))
    for (const q of ["", "?sandbox_result=successful"]) {
      const r = await api(env.emu, "GET", `/api/pay/bank_transfer/control/${json.payment_id}${q}`)
      expect(r.status).toBe(404)
      expect(r.json.message).toMatch(/tracking number/)
    }
    const rec = await api(env.emu, "GET", `/api/pay/bank_transfer/uuid/${json.payment_id}`)
    expect(rec.json.result.sale_status).toBe(0)
    expect(env.receiver.received).toHaveLength(0)
  })

  describe("live", () => {
    it("keeps a transfer pending; control wants the tracking number, not the uuid", async () => {
      const created = await api(env.emu, "POST", "/api/pay/bank_transfer", transfer(), LIVE_KEY)
      expect(created.status).toBe(200)
      const uuid = created.json.payment_id
      const byUuid = await api(env.emu, "GET", `/api/pay/bank_transfer/uuid/${uuid}`, undefined, LIVE_KEY)
      expect(byUuid.json.result.sale_status).toBe(0)
      const wrong = await api(env.emu, "GET", `/api/pay/bank_transfer/control/${uuid}`, undefined, LIVE_KEY)
      expect(wrong.status).toBe(404)
      expect(wrong.json.message).toMatch(/tracking number/)
      const right = await api(env.emu, "GET", `/api/pay/bank_transfer/control/${byUuid.json.result.br_tracking_no}`, undefined, LIVE_KEY)
      expect(right.status).toBe(200)
      expect(right.json.result.br_tracking_no).toBe(byUuid.json.result.br_tracking_no)
      const sandboxParam = await api(
        env.emu,
        "GET",
        `/api/pay/bank_transfer/control/${byUuid.json.result.br_tracking_no}?sandbox_result=successful`,
        undefined,
        LIVE_KEY
      )
      expect(sandboxParam.status).toBe(400)
      // sandbox and live records are separate
      expect((await api(env.emu, "GET", `/api/pay/bank_transfer/uuid/${uuid}`, undefined, SANDBOX_KEY)).status).toBe(404)
    })

    it("refuses sandbox_result with a live key", async () => {
      const r = await api(env.emu, "POST", "/api/pay/bank_transfer", transfer({ sandbox_result: "successful" }), LIVE_KEY)
      expect(r.status).toBe(400)
      expect(r.json.message).toContain("sandbox_result")
    })

    it("applies the minimum TRY amount through the exchange rate", async () => {
      const low = await api(env.emu, "POST", "/api/pay/bank_transfer", transfer({ amount: "0.20", currency: "USD" }), LIVE_KEY)
      expect(low.status).toBe(400)
      expect(low.json.message).toMatch(/8\.00 TRY.*minimum/)
      const ok = await api(env.emu, "POST", "/api/pay/bank_transfer", transfer({ amount: "0.25", currency: "USD" }), LIVE_KEY)
      expect(ok.status).toBe(200)
      const lowTry = await api(env.emu, "POST", "/api/pay/bank_transfer", transfer({ amount: "9.99" }), LIVE_KEY)
      expect(lowTry.status).toBe(400)
    })

    it("confirms a transfer when a matching FAST transfer arrives", async () => {
      const created = await api(env.emu, "POST", "/api/pay/bank_transfer", transfer({ customer_name: "Mehmet Öz", amount: "320.50" }), LIVE_KEY)
      const uuid = created.json.payment_id
      const noMatch = await control(env.emu, "/fast-transfer", { sender_name: "Mehmet Öz", amount: "320.00", currency: "TRY" })
      expect(noMatch.matched).toBe(false)
      const match = await control(env.emu, "/fast-transfer", { sender_name: "  mehmet  öz ", amount: 320.5, currency: "TRY" })
      expect(match).toMatchObject({ matched: true, uuid })
      const rec = await api(env.emu, "GET", `/api/pay/bank_transfer/uuid/${uuid}`, undefined, LIVE_KEY)
      expect(rec.json.result.sale_status).toBe(1)
      await waitFor(() => env.receiver.received.length === 1)
      const v = await api(
        env.emu,
        "POST",
        "/api/sale/webhook/verify",
        { order_id: "order_bt_1", uuid, status: "successful", hash: env.receiver.received[0].body.hash },
        LIVE_KEY
      )
      expect(v.json).toMatchObject({ is_valid: true, official_status: "successful", mode: "api_cc_pos" })
    })

    // §3.1: live FAST matching needs the sender name *and* the amount.
    it("does not confirm a transfer from a FAST transfer of the same amount by someone else", async () => {
      const created = await api(env.emu, "POST", "/api/pay/bank_transfer", transfer({ customer_name: "Mehmet Öz", amount: "320.50" }), LIVE_KEY)
      const other = await control(env.emu, "/fast-transfer", { sender_name: "Ali Veli", amount: "320.50", currency: "TRY" })
      expect(other.matched).toBe(false)
      const rec = await api(env.emu, "GET", `/api/pay/bank_transfer/uuid/${created.json.payment_id}`, undefined, LIVE_KEY)
      expect(rec.json.result.sale_status).toBe(0)
    })

    it("matches a FAST transfer that arrived before the create only by sender name and amount", async () => {
      await control(env.emu, "/fast-transfer", { sender_name: "Ali Veli", amount: "75.00", currency: "TRY" })
      await control(env.emu, "/fast-transfer", { sender_name: "Zeynep Kaya", amount: "80.00", currency: "TRY" })
      const wrongName = await api(
        env.emu,
        "POST",
        "/api/pay/bank_transfer",
        transfer({ customer_name: "Zeynep Kaya", amount: "75.00", order_id: "a" }),
        LIVE_KEY
      )
      const wrongAmount = await api(
        env.emu,
        "POST",
        "/api/pay/bank_transfer",
        transfer({ customer_name: "Ali Veli", amount: "80.00", order_id: "b" }),
        LIVE_KEY
      )
      const both = await api(
        env.emu,
        "POST",
        "/api/pay/bank_transfer",
        transfer({ customer_name: "ali veli", amount: "75.00", order_id: "c" }),
        LIVE_KEY
      )
      const status = async (r: any) =>
        (await api(env.emu, "GET", `/api/pay/bank_transfer/uuid/${r.json.payment_id}`, undefined, LIVE_KEY)).json.result.sale_status
      expect([await status(wrongName), await status(wrongAmount), await status(both)]).toEqual([0, 0, 1])
    })

    it("uses an arrived FAST transfer once, only in its currency, and only for a live transfer that waits", async () => {
      await control(env.emu, "/fast-transfer", { sender_name: "  Deniz Ak ", amount: "60.00", currency: "TRY" })
      await control(env.emu, "/fast-transfer", { sender_name: "Deniz Ak", amount: "70.00", currency: "USD" })
      const usd = await api(
        env.emu,
        "POST",
        "/api/pay/bank_transfer",
        transfer({ customer_name: "Deniz Ak", amount: "70.00", currency: "EUR", order_id: "eur" }),
        LIVE_KEY
      )
      const first = await api(
        env.emu,
        "POST",
        "/api/pay/bank_transfer",
        transfer({ customer_name: "Deniz Ak", amount: "60.00", order_id: "first" }),
        LIVE_KEY
      )
      const second = await api(
        env.emu,
        "POST",
        "/api/pay/bank_transfer",
        transfer({ customer_name: "Deniz Ak", amount: "60.00", order_id: "second" }),
        LIVE_KEY
      )
      const status = async (r: any) =>
        (await api(env.emu, "GET", `/api/pay/bank_transfer/uuid/${r.json.payment_id}`, undefined, LIVE_KEY)).json.result.sale_status
      expect([await status(usd), await status(first), await status(second)]).toEqual([0, 1, 0])
      // A sandbox transfer is never matched by a live FAST transfer.
      await control(env.emu, "/fast-transfer", { sender_name: "Deniz Ak", amount: "60.00", currency: "TRY" })
      const sandbox = await api(
        env.emu,
        "POST",
        "/api/pay/bank_transfer",
        transfer({ customer_name: "Deniz Ak", amount: "60.00", sandbox_result: "pending", order_id: "sb" })
      )
      expect((await api(env.emu, "GET", `/api/pay/bank_transfer/uuid/${sandbox.json.payment_id}`)).json.result.sale_status).toBe(0)
    })

    it("settles through the control API (manual approval)", async () => {
      const created = await api(env.emu, "POST", "/api/pay/bank_transfer", transfer(), LIVE_KEY)
      const r = await control(env.emu, `/transfers/${created.json.payment_id}/settle`, { result: "failed" })
      expect(r.result.sale_status).toBe(2)
      await waitFor(() => env.receiver.received.length === 1)
      expect(env.receiver.received[0].body.status).toBe("failed")
    })
  })

  it("next-outcome applies to the next transfer without sandbox_result", async () => {
    await control(env.emu, "/next-outcome", { outcome: "pending" })
    const a = await api(env.emu, "POST", "/api/pay/bank_transfer", transfer({ order_id: "a" }))
    const b = await api(env.emu, "POST", "/api/pay/bank_transfer", transfer({ order_id: "b" }))
    const ra = await api(env.emu, "GET", `/api/pay/bank_transfer/uuid/${a.json.payment_id}`)
    const rb = await api(env.emu, "GET", `/api/pay/bank_transfer/uuid/${b.json.payment_id}`)
    expect(ra.json.result.sale_status).toBe(0)
    expect(rb.json.result.sale_status).toBe(1)
  })

  describe("card API", () => {
    it("creates a pending card payment whose redirect_url is the three-button page", async () => {
      const r = await api(env.emu, "POST", "/api/pay/credit_card", {
        amount: 99.5,
        currency: "TRY",
        order_id: "card_1",
        success_url: "https://shop.example/ok",
        cancel_url: "https://shop.example/no",
      })
      expect(r.status).toBe(200)
      expect(r.json).toMatchObject({ status: "pending", uuid: expect.any(String), order_id: "card_1", transaction_id: expect.any(String) })
      expect(r.json.redirect_url).toBe(`${env.emu.url}/checkout/session/${r.json.uuid}`)
      const page = await get(r.json.redirect_url)
      expect(page.text).toContain('id="approve"')
      expect(page.text).not.toContain('id="transfer"')
      const done = await postForm(`${r.json.redirect_url}/complete`, { outcome: "approve" })
      expect(done.location).toMatch(/^https:\/\/shop\.example\/ok\?/)
      await waitFor(() => env.receiver.received.length === 1)
      const v = await api(env.emu, "POST", "/api/sale/webhook/verify", {
        order_id: "card_1",
        uuid: r.json.uuid,
        status: "successful",
        hash: env.receiver.received[0].body.hash,
      })
      expect(v.json).toMatchObject({ is_valid: true, mode: "api_cc_pos" })
      const info = await api(env.emu, "POST", "/api/sale/info", { order_id: "card_1" })
      expect(info.status).toBe(200)
      expect(info.json).toMatchObject({ success: true, result: { uuid: r.json.uuid, status: "successful", amount: 99.5 } })
      const byTx = await api(env.emu, "POST", "/api/sale/info/transaction", { transaction_id: r.json.transaction_id })
      expect(byTx.json.result.uuid).toBe(r.json.uuid)
      expect((await api(env.emu, "POST", "/api/sale/info", { order_id: "nope" })).status).toBe(404)
    })

    it("auto-completes the next card payment with next-outcome", async () => {
      await control(env.emu, "/next-outcome", { outcome: "failed" })
      const r = await api(env.emu, "POST", "/api/pay/credit_card", { amount: "10.00", order_id: "card_auto" })
      expect(r.json.status).toBe("pending")
      await waitFor(() => env.receiver.received.length === 1)
      expect(env.receiver.received[0].body).toMatchObject({ status: "failed", order_id: "card_auto", type: "credit_card" })
    })
  })

  describe("auth and misc", () => {
    it("answers 401 for a missing or unknown key without echoing it", async () => {
      const missing = await api(env.emu, "GET", "/api/pay/bank_transfer/bank-group/list", undefined, null)
      expect(missing.status).toBe(401)
      expect(missing.json).toEqual({ success: false, message: expect.stringMatching(/api-key/) })
      const unknown = await api(env.emu, "GET", "/api/pay/bank_transfer/bank-group/list", undefined, "secret_wrong_key_xyz")
      expect(unknown.status).toBe(401)
      expect(JSON.stringify(unknown.json)).not.toContain("secret_wrong_key_xyz")
    })

    it("blocks API calls from a non-allowed IP", async () => {
      await control(env.emu, "/config", { apiIp: "10.9.9.9" })
      const r = await api(env.emu, "GET", "/api/pay/bank_transfer/bank-group/list")
      expect(r.status).toBe(403)
      await control(env.emu, "/config", { apiIp: "127.0.0.1" })
      expect((await api(env.emu, "GET", "/api/pay/bank_transfer/bank-group/list")).status).toBe(200)
    })

    it("answers unknown paths with 404 JSON and refuses /api/sale/verify", async () => {
      const nf = await api(env.emu, "GET", "/api/nope")
      expect(nf.status).toBe(404)
      expect(nf.json.success).toBe(false)
      const sv = await api(env.emu, "POST", "/api/sale/verify", { order_id: "x" })
      expect(sv.status).toBe(400)
      expect(sv.json.message).toBe("Use /api/sale/webhook/verify to confirm payments")
      const pub = await api(env.emu, "POST", "/api/public/payment/notification", { any: 1 }, null)
      expect(pub).toEqual({ status: 200, json: { success: true } })
    })

    it("records requests with has_api_key and never the key", async () => {
      await api(env.emu, "GET", "/api/pay/bank_transfer/bank-group/list")
      await api(env.emu, "GET", "/api/pay/bank_transfer/bank-group/list", undefined, null)
      const reqs = (await control(env.emu, "/requests")).result
      expect(reqs.map((r: any) => r.has_api_key)).toEqual([true, false])
      expect(reqs[0]).toMatchObject({ method: "GET", path: "/api/pay/bank_transfer/bank-group/list" })
      expect(JSON.stringify(reqs)).not.toContain(SANDBOX_KEY)
    })
  })
})

// Survivors of `npm run mutate` on transfer-routes.ts (2026-11-26), one by one.
describe("bank transfer API, each answer exactly", () => {
  const env = emulatorWithReceiver()
  const status = async (r: any, key = LIVE_KEY) =>
    (await api(env.emu, "GET", `/api/pay/bank_transfer/uuid/${r.json.payment_id}`, undefined, key)).json.result.sale_status

  it("names each refusal", async () => {
    await control(env.emu, "/config", { permBankTransfer: false })
    expect((await api(env.emu, "POST", "/api/pay/bank_transfer", transfer())).json.message).toBe(
      "Bank transfer through the API is not permitted for this merchant (api_perm_bank_transfer=0)"
    )
    await control(env.emu, "/config", { permBankTransfer: true })
    const live = await api(env.emu, "POST", "/api/pay/bank_transfer", transfer(), LIVE_KEY)
    const trackingNo = (await api(env.emu, "GET", `/api/pay/bank_transfer/uuid/${live.json.payment_id}`, undefined, LIVE_KEY)).json.result
      .br_tracking_no
    expect(
      (await api(env.emu, "GET", `/api/pay/bank_transfer/control/${trackingNo}?sandbox_result=successful`, undefined, LIVE_KEY)).json.message
    ).toBe(`Invalid parameter "sandbox_result": only available with a sandbox API key`)
    expect((await api(env.emu, "GET", "/api/pay/bank_transfer/control/999999")).json).toEqual({
      success: false,
      message: "Bank transfer 999999 not found",
    })
    expect((await api(env.emu, "GET", "/api/pay/bank_transfer/uuid/nope")).json).toEqual({
      success: false,
      message: "Bank transfer with uuid nope not found",
    })
  })

  it("lists the banks of the asked group only, and refuses a group id that is not an integer", async () => {
    const ids = async (group: number) =>
      (await api(env.emu, "GET", `/api/pay/bank_transfer/get/banks/${group}`)).json.result.map((b: any) => b.bta_id)
    expect(await ids(1)).toEqual([11, 12, 13])
    expect(await ids(2)).toEqual([21, 22])
    for (const bad of ["abc", "x1", "1x"]) {
      const r = await api(env.emu, "GET", `/api/pay/bank_transfer/get/banks/${bad}`)
      expect([r.status, r.json.message]).toEqual([400, `Invalid field "bank_group_id": must be an integer`])
    }
    const missing = await api(env.emu, "GET", "/api/pay/bank_transfer/get/banks/99")
    expect([missing.status, missing.json.message]).toEqual([404, "Bank group 99 not found"])
  })

  it("keeps the customer's address, e-mail and phone on the transfer", async () => {
    await api(env.emu, "POST", "/api/pay/bank_transfer", transfer({ customer_phone: "+905550000000" }))
    const [t] = (await control(env.emu, "/transfers")).result
    expect(t.transfer).toMatchObject({ client_ip: "203.0.113.7", customer_email: "ayse@example.com", customer_phone: "+905550000000" })
  })

  it("lets an arrived FAST transfer confirm only a live transfer that waits, reading its sender in capitals", async () => {
    await control(env.emu, "/fast-transfer", { sender_name: "  ayşe yılmaz ", amount: "150.00", currency: "TRY" })
    // A sandbox transfer that waits, and a live one that the next outcome fails, leave it unused.
    const sandbox = await api(env.emu, "POST", "/api/pay/bank_transfer", transfer({ sandbox_result: "pending", order_id: "sb" }))
    await control(env.emu, "/next-outcome", { outcome: "failed" })
    const failed = await api(env.emu, "POST", "/api/pay/bank_transfer", transfer({ order_id: "failed" }), LIVE_KEY)
    expect([await status(sandbox, SANDBOX_KEY), await status(failed)]).toEqual([0, 2])
    expect((await control(env.emu, "/transfers")).fast_transfers).toMatchObject([{ matched_uuid: null }])
    const waiting = await api(env.emu, "POST", "/api/pay/bank_transfer", transfer({ order_id: "live" }), LIVE_KEY)
    expect(await status(waiting)).toBe(1)
    expect((await control(env.emu, "/transfers")).fast_transfers).toMatchObject([{ matched_uuid: waiting.json.payment_id }])
  })

  it("routes each endpoint by its whole path, behind the key, under its own fault name", async () => {
    const live = await api(env.emu, "POST", "/api/pay/bank_transfer", transfer())
    const trackingNo = (await api(env.emu, "GET", `/api/pay/bank_transfer/uuid/${live.json.payment_id}`)).json.result.br_tracking_no
    const paths: Array<[string, string, string]> = [
      ["bank_groups", "GET", "/api/pay/bank_transfer/bank-group/list"],
      ["banks", "GET", "/api/pay/bank_transfer/get/banks/1"],
      ["create_transfer", "POST", "/api/pay/bank_transfer"],
      ["control", "GET", `/api/pay/bank_transfer/control/${trackingNo}`],
      ["uuid", "GET", `/api/pay/bank_transfer/uuid/${live.json.payment_id}`],
    ]
    for (const [endpoint, method, path] of paths) {
      const body = method === "POST" ? transfer() : undefined
      expect([endpoint, (await api(env.emu, method, path, body, null)).status]).toEqual([endpoint, 401])
      for (const around of [`/x${path}`, `${path}/x`]) expect([around, (await api(env.emu, method, around, body)).status]).toEqual([around, 404])
      await control(env.emu, "/faults", { endpoint, mode: "error500", count: 1 })
      expect([endpoint, (await api(env.emu, method, path, body)).status]).toEqual([endpoint, 500])
      expect([endpoint, (await api(env.emu, method, path, body)).status]).toEqual([endpoint, 200])
    }
  })
})
