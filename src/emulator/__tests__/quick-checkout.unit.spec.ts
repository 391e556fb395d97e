import { api, control, emulatorWithReceiver, get, LIVE_ID, LIVE_KEY, openQuickCheckout, postForm, signedForm, waitFor } from "./helpers"

describe("Quick Checkout", () => {
  const env = emulatorWithReceiver()

  it("runs the whole signed flow: page, approve, redirect, webhook, verify", async () => {
    const res = await postForm(env.emu.url + "/checkout/quick", signedForm({ order_id: "order_qc_1", amount: "249.90" }))
    expect(res.status).toBe(303)
    expect(res.location).toMatch(/^\/checkout\/session\/[0-9a-f-]{36}$/)
    const uuid = res.location!.split("/").pop()!

    const page = await get(env.emu.url + res.location)
    expect(page.status).toBe(200)
    for (const id of ["approve", "reject", "insufficient", "sender_name", "bank_id", "transfer"]) {
      expect(page.text).toContain(`id="${id}"`)
    }
    expect(page.text).toContain("249.90 TRY")
    expect(page.text).toContain("Sipariş #1")

    const done = await postForm(`${env.emu.url}/checkout/session/${uuid}/complete`, { outcome: "approve" })
    expect(done.status).toBe(303)
    const target = new URL(done.location!)
    expect(target.origin + target.pathname).toBe("https://shop.example/success")
    const q = Object.fromEntries(target.searchParams)
    expect(q).toMatchObject({ status: "success", order_id: "order_qc_1", amount: "249.90", currency: "TRY" })
    expect(q.transaction_id).toBeTruthy()
    expect(q.ts).toMatch(/^\d+$/)
    expect(q.hash).toMatch(/^[0-9a-f]{64}$/)

    await waitFor(() => env.receiver.received.length === 1)
    const hook = env.receiver.received[0]
    expect(hook.headers["content-type"]).toContain("application/json")
    expect(hook.body).toEqual({
      order_id: "order_qc_1",
      // Its own hash: the redirect's was built over `success`, this one over `successful`.
      hash: expect.stringMatching(/^[0-9a-f]{64}$/),
      uuid,
      status: "successful",
      message: "successful",
      type: "credit_card",
      amount: 249.9,
      currency: "TRY",
      transaction_id: q.transaction_id,
    })
    expect(hook.body.hash).not.toBe(q.hash)

    const v = await api(env.emu, "POST", "/api/sale/webhook/verify", {
      order_id: hook.body.order_id,
      uuid: hook.body.uuid,
      status: hook.body.status,
      hash: hook.body.hash,
    })
    expect(v.status).toBe(200)
    expect(v.json).toMatchObject({
      success: true,
      is_valid: true,
      payment_confirmed: true,
      official_status: "successful",
      status_match: true,
      hash_match: true,
      order_id: "order_qc_1",
      uuid,
      mode: "quick_checkout_fallback",
    })

    const hooks = await control(env.emu, "/webhooks")
    expect(hooks.result).toHaveLength(1)
    expect(hooks.result[0].state).toBe("delivered")
    expect(hooks.result[0].attempts[0].http_status).toBe(200)

    // Final payments are not changed again: pressing reject now just repeats the success redirect.
    const again = await postForm(`${env.emu.url}/checkout/session/${uuid}/complete`, { outcome: "reject" })
    expect(new URL(again.location!).searchParams.get("status")).toBe("success")
    expect(env.receiver.received).toHaveLength(1)
  })

  it.each([
    ["reject", /3D/],
    ["insufficient", /Insufficient balance/],
  ])("redirects to cancel_url on %s and sends a failed webhook", async (outcome, message) => {
    const { uuid } = await openQuickCheckout(env.emu, { order_id: `order_${outcome}` })
    const done = await postForm(`${env.emu.url}/checkout/session/${uuid}/complete`, { outcome })
    expect(done.status).toBe(303)
    const target = new URL(done.location!)
    expect(target.pathname).toBe("/cancel")
    const q = Object.fromEntries(target.searchParams)
    expect(q).toMatchObject({ status: "error", order_id: `order_${outcome}`, amount: "200.00", currency: "TRY" })
    expect(q.message).toMatch(message)
    expect(q.hash).toMatch(/^[0-9a-f]{64}$/)
    expect(q.ts).toMatch(/^\d+$/)
    await waitFor(() => env.receiver.received.length === 1)
    expect(env.receiver.received[0].body).toMatchObject({ status: "failed", message: "failed", uuid, type: "credit_card" })
    const v = await api(env.emu, "POST", "/api/sale/webhook/verify", {
      order_id: `order_${outcome}`,
      uuid,
      status: "failed",
      hash: env.receiver.received[0].body.hash,
    })
    expect(v.json).toMatchObject({ is_valid: true, payment_confirmed: false, official_status: "failed" })
  })

  it("judges forged webhooks invalid", async () => {
    const { uuid } = await openQuickCheckout(env.emu, { order_id: "order_forge" })
    await postForm(`${env.emu.url}/checkout/session/${uuid}/complete`, { outcome: "reject" })
    await waitFor(() => env.receiver.received.length === 1)
    const real = env.receiver.received[0].body
    const verify = (b: Record<string, string>) => api(env.emu, "POST", "/api/sale/webhook/verify", b).then((r) => r.json)

    const changedHash = await verify({ order_id: real.order_id, uuid, status: "failed", hash: "0".repeat(64) })
    expect(changedHash).toMatchObject({ is_valid: false, hash_match: false, status_match: true })

    const changedStatus = await verify({ order_id: real.order_id, uuid, status: "successful", hash: real.hash })
    expect(changedStatus).toMatchObject({ is_valid: false, hash_match: false, status_match: false, official_status: "failed" })

    const unknown = await verify({ order_id: real.order_id, uuid: "00000000-0000-4000-8000-000000000000", status: "successful", hash: real.hash })
    expect(unknown).toMatchObject({ success: true, is_valid: false, payment_confirmed: false })

    const otherOrder = await verify({ order_id: "someone_else", uuid, status: "failed", hash: real.hash })
    expect(otherOrder.is_valid).toBe(false)

    const missing = await api(env.emu, "POST", "/api/sale/webhook/verify", { order_id: "x", uuid })
    expect(missing.status).toBe(400)
    expect(missing.json.message).toMatch(/status/)
  })

  describe("refusals create nothing", () => {
    const cases: Array<[string, () => Record<string, string>, number, RegExp]> = [
      ["a tampered amount", () => ({ ...signedForm({ amount: "200.00" }), amount: "2.00" }), 401, /signature/i],
      ["a wrong key", () => signedForm({}, "not_the_key"), 401, /signature/i],
      ["an expired ts", () => signedForm({ ts: String(Math.floor(Date.now() / 1000) - 3600) }), 400, /expired/i],
      // §5.2.6 / §8: 30 minutes by default, so 31 minutes is already too old.
      ["a ts 31 minutes old", () => signedForm({ ts: String(Math.floor(Date.now() / 1000) - 31 * 60) }), 400, /expired/i],
      ["a ts in the future", () => signedForm({ ts: String(Math.floor(Date.now() / 1000) + 600) }), 400, /future/i],
      ["an unknown api_id", () => signedForm({ api_id: "9999" }), 401, /api_id/],
      ["a malformed amount", () => signedForm({ amount: "200" }), 400, /amount/],
      ["a zero amount", () => signedForm({ amount: "0.00" }), 400, /amount/],
      ["an unknown currency", () => signedForm({ currency: "JPY" }), 400, /currency/],
      [
        "a missing order_id",
        () => {
          const f = signedForm({})
          delete f.order_id
          return f
        },
        400,
        /order_id/,
      ],
      ["a blank order_id", () => signedForm({ order_id: "  " }), 400, /Missing required field .{1,6}order_id/],
      ["a non-integer api_id", () => signedForm({ api_id: "10a" }), 400, /api_id.{1,8}: must be an integer/],
      ["an amount with one decimal", () => signedForm({ amount: "200.5" }), 400, /must have the shape 200.00/],
      [
        "a success_url that is not http(s)",
        () => signedForm({ success_url: "ftp://shop.example/ok" }),
        400,
        /success_url.{1,8}: must be an absolute URL/,
      ],
      ["a cancel_url that is not a URL", () => signedForm({ cancel_url: "not a url" }), 400, /cancel_url.{1,8}: must be an absolute URL/],
      [
        "a non-https cancel_url in live",
        () => signedForm({ api_id: String(LIVE_ID), cancel_url: "http://shop.example/no" }, LIVE_KEY),
        400,
        /cancel_url.{1,8}: HTTPS is required/,
      ],
      ["a non-https URL in live", () => signedForm({ api_id: String(LIVE_ID), success_url: "http://shop.example/ok" }, LIVE_KEY), 400, /HTTPS/],
      ["a live amount under the minimum", () => signedForm({ api_id: String(LIVE_ID), amount: "5.00" }, LIVE_KEY), 400, /minimum/],
    ]
    it.each(cases)("refuses %s", async (_name, build, status, reason) => {
      const res = await postForm(env.emu.url + "/checkout/quick", build())
      expect(res.status).toBe(status)
      expect(res.text).toMatch(reason)
      expect(res.text).toContain("<html")
      expect((await control(env.emu, "/payments")).result).toHaveLength(0)
    })

    it("blocks an access with an api_ip restriction", async () => {
      await control(env.emu, "/config", { apiIp: "10.1.2.3" })
      const res = await postForm(env.emu.url + "/checkout/quick", signedForm({}))
      expect(res.status).toBe(403)
      expect(res.text).toMatch(/api_ip/)
      expect((await control(env.emu, "/payments")).result).toHaveLength(0)
    })
  })

  it("accepts a ts 29 minutes old (inside the 30-minute window)", async () => {
    const { uuid } = await openQuickCheckout(env.emu, { ts: String(Math.floor(Date.now() / 1000) - 29 * 60) })
    expect((await control(env.emu, `/payments/${uuid}`)).result.status).toBe("pending")
  })

  // §4.2: TRY, USD, EUR, GBP.
  it.each(["TRY", "USD", "EUR", "GBP", "gbp"])("accepts Quick Checkout in %s", async (currency) => {
    const { uuid } = await openQuickCheckout(env.emu, { currency, order_id: `order_${currency}` })
    expect((await control(env.emu, `/payments/${uuid}`)).result).toMatchObject({ currency: currency.toUpperCase(), amount: "200.00" })
  })

  it("accepts a live checkout with https URLs and enough TRY value", async () => {
    const { uuid } = await openQuickCheckout(env.emu, { api_id: String(LIVE_ID), amount: "1.00", currency: "USD" }, LIVE_KEY)
    const p = (await control(env.emu, `/payments/${uuid}`)).result
    expect(p).toMatchObject({ mode: "live", kind: "quick_checkout", amount: "1.00", currency: "USD", status: "pending" })
  })

  it("currency variant A charges the converted TRY amount", async () => {
    await control(env.emu, "/config", { currencyVariant: "A" })
    const { uuid } = await openQuickCheckout(env.emu, { amount: "10.00", currency: "EUR", order_id: "order_eur" })
    const done = await postForm(`${env.emu.url}/checkout/session/${uuid}/complete`, { outcome: "approve" })
    const q = new URL(done.location!).searchParams
    expect(q.get("amount")).toBe("450.00")
    expect(q.get("currency")).toBe("TRY")
    await waitFor(() => env.receiver.received.length === 1)
    expect(env.receiver.received[0].body).toMatchObject({ amount: 450, currency: "TRY" })
  })

  it("supports paying by transfer on the page, with a self-refreshing waiting page", async () => {
    const { uuid } = await openQuickCheckout(env.emu, { order_id: "order_page_transfer", amount: "300.00" })
    const chosen = await postForm(`${env.emu.url}/checkout/session/${uuid}/transfer`, { sender_name: "Ayşe Yılmaz", bank_id: "12" })
    expect(chosen.status).toBe(303)
    expect(chosen.location).toBe(`/checkout/session/${uuid}/waiting`)
    const waiting = await get(env.emu.url + chosen.location)
    expect(waiting.status).toBe(200)
    expect(waiting.text).toContain('http-equiv="refresh" content="2"')
    expect(waiting.text).toContain('id="transfer-approve"')
    expect(waiting.text).toContain('id="transfer-reject"')
    expect(waiting.text).toContain("TR33 0006 2000 4440 0006 2986 57")
    // the session page now leads to the waiting page
    expect((await get(`${env.emu.url}/checkout/session/${uuid}`)).location).toBe(`/checkout/session/${uuid}/waiting`)

    const settled = await postForm(`${env.emu.url}/checkout/session/${uuid}/transfer/settle`, { result: "successful" })
    expect(settled.status).toBe(303)
    const q = Object.fromEntries(new URL(settled.location!).searchParams)
    expect(q).toMatchObject({ status: "success", uuid, type: "bank_transfer", order_id: "order_page_transfer", amount: "300.00", currency: "TRY" })
    expect(q.transaction_id).toBeTruthy()
    // the waiting page redirects on once settled
    const after = await get(`${env.emu.url}/checkout/session/${uuid}/waiting`)
    expect(after.status).toBe(303)
    expect(after.location).toContain("https://shop.example/success")

    await waitFor(() => env.receiver.received.length === 1)
    expect(env.receiver.received[0].body).toMatchObject({ type: "bank_transfer", status: "successful", uuid })
    const v = await api(env.emu, "POST", "/api/sale/webhook/verify", { order_id: "order_page_transfer", uuid, status: q.status, hash: q.hash })
    expect(v.json).toMatchObject({ is_valid: true, official_status: "successful", mode: "quick_checkout_fallback" })
  })

  it("sends a rejected page transfer to cancel_url", async () => {
    const { uuid } = await openQuickCheckout(env.emu, { order_id: "order_page_transfer_fail" })
    await postForm(`${env.emu.url}/checkout/session/${uuid}/transfer`, { sender_name: "Ali Veli", bank_id: "21" })
    const settled = await postForm(`${env.emu.url}/checkout/session/${uuid}/transfer/settle`, { result: "failed" })
    const q = Object.fromEntries(new URL(settled.location!).searchParams)
    expect(q).toMatchObject({ status: "error", uuid, type: "bank_transfer" })
    expect(q.message).toBeTruthy()
  })

  // §4.2 rule 4 / §4.1 rule 3: the page offers transfer only with api_perm_bank_transfer=1 and pm_bank_transfer=1.
  it.each([
    ["pm_bank_transfer", { pmBankTransfer: false }],
    ["api_perm_bank_transfer", { permBankTransfer: false }],
  ])("hides the transfer choice when %s is off", async (_flag, config) => {
    await control(env.emu, "/config", config)
    const { location, uuid } = await openQuickCheckout(env.emu)
    const page = await get(env.emu.url + location)
    expect(page.text).toContain('id="approve"')
    expect(page.text).not.toContain('id="transfer"')
    const res = await postForm(`${env.emu.url}/checkout/session/${uuid}/transfer`, { sender_name: "A B", bank_id: "11" })
    expect(res.status).toBe(403)
  })

  it("serves Hosted Checkout with redirect URLs from the query only", async () => {
    const res = await postForm(
      `${env.emu.url}/checkout/demo-urun/1?success_url=${encodeURIComponent("https://shop.example/h-ok")}&cancel_url=${encodeURIComponent("https://shop.example/h-cancel")}`,
      { success_url: "https://evil.example/ok" }
    )
    expect(res.status).toBe(303)
    const uuid = res.location!.split("/").pop()!
    const done = await postForm(`${env.emu.url}/checkout/session/${uuid}/complete`, { outcome: "approve" })
    expect(done.location).toMatch(/^https:\/\/shop\.example\/h-ok\?/)
    expect(new URL(done.location!).searchParams.get("amount")).toBe("150.00")
    expect((await get(`${env.emu.url}/checkout/nope/9`)).status).toBe(404)
  })

  it("completes a payment through the control API", async () => {
    const { uuid } = await openQuickCheckout(env.emu, { order_id: "order_ctl" })
    const r = await control(env.emu, `/payments/${uuid}/complete`, { outcome: "approve" })
    expect(r.changed).toBe(true)
    expect(r.result.status).toBe("successful")
    const again = await control(env.emu, `/payments/${uuid}/complete`, { outcome: "reject" })
    expect(again.changed).toBe(false)
    expect(again.result.status).toBe("successful")
  })
})

// Survivors of `npm run mutate` on checkout-routes.ts's Quick Checkout handler (2026-11-26).
describe("Quick Checkout, each check exactly", () => {
  const env = emulatorWithReceiver()
  const post = (form: Record<string, string>) => postForm(env.emu.url + "/checkout/quick", form)

  it.each([
    ["an api_id with a prefix", { api_id: "x1001" }, /api_id.{1,8}: must be an integer/],
    ["an amount with a prefix", { amount: "x200.00" }, /shape 200\.00/],
    ["an amount with three decimals", { amount: "200.001" }, /shape 200\.00/],
    ["a zero amount", { amount: "0.00" }, /amount.{1,8}: must be greater than 0/],
    ["an unknown currency", { currency: "JPY" }, /must be one of TRY, USD, EUR, GBP/],
    ["a ts that is not a number", { ts: "abc" }, /ts.{1,8}: must be a unix timestamp/],
  ])("refuses %s with its reason", async (_name, fields, reason) => {
    const res = await post(signedForm(fields as never))
    expect(res.status).toBe(400)
    expect(res.text).toMatch(reason)
    expect((await control(env.emu, "/payments")).result).toHaveLength(0)
  })

  it("trims the currency, and asks a sandbox checkout neither HTTPS nor the minimum", async () => {
    expect((await post(signedForm({ currency: " usd " }))).status).toBe(303)
    expect((await post(signedForm({ amount: "1.00", success_url: "http://shop.example/ok", cancel_url: "http://shop.example/no" }))).status).toBe(303)
  })
})
