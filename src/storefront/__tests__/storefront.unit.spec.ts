import fs from "node:fs"
import path from "node:path"
import { failureReason } from "../../lib/failure-reason"
import {
  ODEME_CHECKOUT_PROVIDER_ID,
  ODEME_ERROR_CODES,
  ODEME_FAILURE_REASONS,
  ODEME_TRANSFER_PROVIDER_ID,
  isOdemeCheckout,
  isOdemeProvider,
  isOdemeTransfer,
  odemeErrorCode,
  odemeErrorMessage,
  odemeErrorMessages,
  odemeLanguage,
  odemeNotCompletedMessage,
  odemeNotCompletedMessages,
  odemeProviderId,
  odemeProviderKind,
  odemeReasonMessage,
  odemeReasonMessages,
  parseBanksResponse,
  parseOdemeReturnParams,
  parsePaymentSessionStatusResponse,
  parseQuickCheckoutFormResponse,
  parseTransferSessionData,
  submitQuickCheckoutForm,
  waitForPayment,
  completeWhenPaid,
  isCartCompletionConflict,
  WAIT_LIMIT_MS,
  type FormDocument,
} from ".."

describe("provider ids", () => {
  it("are the ids Medusa builds for the README's registration", () => {
    expect(ODEME_CHECKOUT_PROVIDER_ID).toBe("pp_odeme-checkout_odeme")
    expect(ODEME_TRANSFER_PROVIDER_ID).toBe("pp_odeme-transfer_odeme")
    expect(odemeProviderId("checkout")).toBe(ODEME_CHECKOUT_PROVIDER_ID)
    expect(odemeProviderId("transfer", "tr-shop")).toBe("pp_odeme-transfer_tr-shop")
    expect(() => odemeProviderId("transfer", "a b")).toThrow(TypeError)
  })

  it("tell the flow of any registration id, and nothing for other providers", () => {
    expect(odemeProviderKind("pp_odeme-checkout_shop2")).toBe("checkout")
    expect(odemeProviderKind(ODEME_TRANSFER_PROVIDER_ID)).toBe("transfer")
    for (const other of ["pp_system_default", "pp_stripe_stripe", "", undefined, null, "pp_odeme"]) {
      expect(odemeProviderKind(other)).toBeNull()
      expect(isOdemeProvider(other)).toBe(false)
    }
    expect(isOdemeCheckout(ODEME_CHECKOUT_PROVIDER_ID)).toBe(true)
    expect(isOdemeTransfer(ODEME_CHECKOUT_PROVIDER_ID)).toBe(false)
  })
})

describe("language", () => {
  it.each([
    ["tr", "tr"],
    ["tr-TR", "tr"],
    ["TR_tr", "tr"],
    ["en-US", "en"],
    ["de", "en"],
    ["trk", "en"],
  ] as const)("%s -> %s", (locale, lang) => expect(odemeLanguage(locale)).toBe(lang))

  it("falls back to the store's default when no locale is set", () => {
    expect(odemeLanguage(null)).toBe("en")
    expect(odemeLanguage("", "tr")).toBe("tr")
  })
})

describe("reason messages", () => {
  it("cover every code the plugin's return route can send, in both languages", () => {
    const sent = new Set(["yetersiz bakiye", "3D doğrulama başarısız", "İşlem iptal edildi", "anything else", undefined].map((m) => failureReason(m)))
    expect([...sent].sort()).toEqual([...ODEME_FAILURE_REASONS].sort())
    for (const code of ODEME_FAILURE_REASONS) {
      expect(odemeReasonMessages[code].tr.length).toBeGreaterThan(10)
      expect(odemeReasonMessages[code].en.length).toBeGreaterThan(10)
      expect(odemeReasonMessages[code].tr).not.toBe(odemeReasonMessages[code].en)
    }
  })

  it("read an unknown or missing code as a plain decline, never echoing it", () => {
    expect(odemeReasonMessage("<script>", "en")).toBe(odemeReasonMessages.declined.en)
    expect(odemeReasonMessage(null, "tr")).toBe(odemeReasonMessages.declined.tr)
    expect(odemeReasonMessage("insufficient_funds", "tr")).toMatch(/bakiye/)
  })

  it("word a return through the cancel address neutrally, true for a cancel and a decline alike", () => {
    // The service sends a declined card or a failed 3-D Secure check to the cancel address too (spec §6.1).
    expect(odemeNotCompletedMessage("tr")).toBe("Ödeme tamamlanmadı. Tekrar deneyebilir ya da başka bir ödeme yöntemi seçebilirsiniz.")
    expect(odemeNotCompletedMessage("en")).toBe("The payment was not completed. You can try again or choose another payment method.")
    for (const language of ["tr", "en"] as const) {
      const text = odemeNotCompletedMessage(language)
      expect(text).toBe(odemeNotCompletedMessages[language])
      // Neither "you canceled" nor a claim about the money: a redirect proves neither.
      expect(text).not.toBe(odemeReasonMessages.canceled[language])
      expect(text).not.toMatch(/iptal|cancel|çekil|charged|taken|refund|iade/i)
    }
  })
})

describe("error codes", () => {
  it("have a Turkish and an English text for every code, and nothing else", () => {
    expect(Object.keys(odemeErrorMessages).sort()).toEqual([...ODEME_ERROR_CODES].sort())
    for (const code of ODEME_ERROR_CODES) {
      expect(odemeErrorMessages[code].tr).toMatch(/[çğıöşüÇĞİÖŞÜ]|\w{3}/)
      expect(odemeErrorMessages[code].en).not.toEqual(odemeErrorMessages[code].tr)
    }
  })

  it("are found in a store route's `code`, at the end of a message, or inside a cart completion's error", () => {
    expect(odemeErrorCode({ code: "odeme.bank_unknown", message: "Unknown bank_id 9" })).toBe("odeme.bank_unknown")
    expect(odemeErrorCode(new Error("This payment was canceled. [odeme.payment_canceled]"))).toBe("odeme.payment_canceled")
    expect(odemeErrorCode({ type: "cart", error: { message: "x [odeme.creation_unknown]", type: "payment_authorization_error" } })).toBe(
      "odeme.creation_unknown"
    )
    expect(odemeErrorCode("Not confirmed yet [odeme.payment_pending]")).toBe("odeme.payment_pending")
  })

  it("ignore codes the plugin does not send and brackets that are not at the end", () => {
    expect(odemeErrorCode({ code: "invalid_request_error", message: "Cart is empty" })).toBeNull()
    expect(odemeErrorCode(new Error("[odeme.payment_failed] then more text"))).toBeNull()
    expect(odemeErrorCode(new Error("bad [odeme.made_up]"))).toBeNull()
    expect(odemeErrorCode(null)).toBeNull()
  })

  it("read as the translated text, and other errors as their own message in English only", () => {
    expect(odemeErrorMessage(new Error("Choose a bank account [odeme.transfer_details_missing]"), "tr")).toBe(
      odemeErrorMessages["odeme.transfer_details_missing"].tr
    )
    // The dtc-starter's medusaError ends every message with a full stop.
    expect(odemeErrorMessage(new Error("Return url is not allowed [odeme.return_url_not_allowed]."), "tr")).toBe(
      odemeErrorMessages["odeme.return_url_not_allowed"].tr
    )
    expect(odemeErrorMessage(new Error("Cart is empty"), "en")).toBe("Cart is empty")
    expect(odemeErrorMessage(undefined, "en", "Something went wrong")).toBe("Something went wrong")
    // A Turkish page never shows Medusa's English text.
    expect(odemeErrorMessage(new Error("Cart is empty"), "tr")).toBe(odemeErrorMessages["odeme.payment_failed"].tr)
    expect(odemeErrorMessage(new Error("Cart is empty"), "tr", "Sipariş oluşturulamadı")).toBe("Sipariş oluşturulamadı")
  })
})

describe("parseOdemeReturnParams", () => {
  const base = { status: "paid", session_id: "payses_01ABC", cart_id: "cart_01XYZ" }

  it("reads the plugin's redirect from Next's searchParams and from URLSearchParams", () => {
    expect(parseOdemeReturnParams(base)).toEqual({
      status: "paid",
      sessionId: "payses_01ABC",
      cartId: "cart_01XYZ",
      reason: null,
      returnedFromCancel: false,
    })
    const qs = new URLSearchParams({ ...base, status: "failed", reason: "canceled" })
    expect(parseOdemeReturnParams(qs)).toEqual({
      status: "failed",
      sessionId: "payses_01ABC",
      cartId: "cart_01XYZ",
      reason: "canceled",
      returnedFromCancel: false,
    })
    expect(parseOdemeReturnParams({ ...base, session_id: ["payses_1", "payses_2"] })?.sessionId).toBe("payses_1")
  })

  it("keeps a reason only on a failure and only when it is a known code", () => {
    expect(parseOdemeReturnParams({ ...base, reason: "canceled" })?.reason).toBeNull()
    expect(parseOdemeReturnParams({ ...base, status: "failed", reason: "Kartınız çalındı" })?.reason).toBeNull()
  })

  it("tells a return through the cancel address that nothing confirmed, and only that", () => {
    expect(parseOdemeReturnParams({ ...base, status: "pending", returned: "cancel" })?.returnedFromCancel).toBe(true)
    expect(parseOdemeReturnParams({ ...base, status: "paid", returned: "cancel" })?.returnedFromCancel).toBe(false)
    expect(parseOdemeReturnParams({ ...base, status: "pending", returned: "success" })?.returnedFromCancel).toBe(false)
  })

  it("refuses addresses the plugin did not make", () => {
    expect(parseOdemeReturnParams({})).toBeNull()
    expect(parseOdemeReturnParams({ ...base, status: "success" })).toBeNull()
    expect(parseOdemeReturnParams({ ...base, session_id: "../../etc" })).toBeNull()
    expect(parseOdemeReturnParams({ ...base, cart_id: "x y" })?.cartId).toBeNull()
  })
})

describe("response parsers", () => {
  const account = {
    bank_id: 7,
    bank_name: "Ziraat",
    account_holder: "Demo Ltd",
    iban: "TR330006100519786457841326",
    iban_display: "TR33 0006 1005 1978 6457 8413 26",
    description: "Açıklamaya sipariş numarasını yazın",
    group_id: 1,
    group_name: "TRY",
  }

  it("accept the store routes' shapes", () => {
    expect(parseBanksResponse({ bank_groups: [{ id: 1, name: "TRY", accounts: [account] }] }).bank_groups[0].accounts[0]).toEqual(account)
    const status = {
      id: "payses_1",
      provider_id: ODEME_TRANSFER_PROVIDER_ID,
      session_status: "pending_authorization",
      state: "awaiting_transfer",
      status: "pending",
      amount: "250.00",
      currency: "TRY",
      flow: "transfer_api",
      bank_name: "Ziraat",
      account_holder: "Demo Ltd",
      iban: account.iban,
      iban_display: account.iban_display,
      tracking_no: "TRK123",
      payer_name: "Ayşe Yılmaz",
      reference: "payses_1",
    }
    expect(parsePaymentSessionStatusResponse({ payment_session: status }).payment_session.status).toBe("pending")
    const form = { action: "https://pay.example/checkout/quick", method: "POST", fields: { api_id: "1", signature: "ab" } }
    expect(parseQuickCheckoutFormResponse({ form }).form).toEqual(form)
  })

  it("throw a message naming the route and the field for anything else", () => {
    expect(() => parseBanksResponse({ bank_groups: [{ id: 1, name: "TRY", accounts: [{ ...account, bank_id: "7" }] }] })).toThrow(
      /GET \/store\/odeme\/banks: bank_groups\.0\.accounts\.0\.bank_id/
    )
    expect(() => parseQuickCheckoutFormResponse({ form: { action: "javascript:alert(1)", method: "POST", fields: {} } })).toThrow(/form\.action/)
    expect(() => parsePaymentSessionStatusResponse({ payment_session: { status: "captured" } })).toThrow(TypeError)
  })

  it("read a transfer session's data, or null when it has none", () => {
    const data = { reference: "payses_1", amount: "250.00", currency: "TRY", tracking_no: "TRK1", iban_display: "TR33 0006", extra: 1 }
    expect(parseTransferSessionData(data)).toMatchObject({ tracking_no: "TRK1", iban_display: "TR33 0006" })
    expect(parseTransferSessionData({ client_secret: "x" })).toBeNull()
    expect(parseTransferSessionData(null)).toBeNull()
  })
})

describe("submitQuickCheckoutForm", () => {
  function fakeDocument() {
    const appended: any[] = []
    const make = (tag: string) => {
      const el: any = { tag, children: [] as any[], style: {}, submitted: 0 }
      el.appendChild = (c: unknown) => el.children.push(c)
      el.submit = () => el.submitted++
      return el
    }
    const doc = { createElement: make, body: { appendChild: (n: unknown) => appended.push(n) } } as unknown as FormDocument
    return { doc, appended }
  }

  it("builds a hidden POST form with the signed fields unchanged, adds it to the page and submits it", () => {
    const { doc, appended } = fakeDocument()
    const fields = { api_id: "1001", amount: "250.00", description: "Sipariş payses_1 & ğüşıöç", signature: "deadbeef" }
    const el: any = submitQuickCheckoutForm({ action: "https://pay.example/checkout/quick", method: "POST", fields }, doc)
    expect(appended).toEqual([el])
    expect(el).toMatchObject({ tag: "form", method: "POST", action: "https://pay.example/checkout/quick", submitted: 1 })
    expect(el.children.map((i: any) => [i.tag, i.type, i.name, i.value])).toEqual(Object.entries(fields).map(([n, v]) => ["input", "hidden", n, v]))
  })

  it("refuses a form that is not one (nothing added, nothing submitted)", () => {
    const { doc, appended } = fakeDocument()
    expect(() => submitQuickCheckoutForm({ action: "javascript:alert(1)", method: "POST", fields: {} }, doc)).toThrow(/action/)
    expect(() => submitQuickCheckoutForm({ action: "https://x.example", method: "GET" as "POST", fields: {} }, doc)).toThrow(/method/)
    expect(appended).toEqual([])
  })

  it("says so when there is no document (server code)", () => {
    expect(() => submitQuickCheckoutForm({ action: "https://pay.example/q", method: "POST", fields: {} })).toThrow(/browser/)
  })
})

describe("waitForPayment", () => {
  const answers = (...statuses: Array<"paid" | "pending" | "failed" | Error>) => {
    let i = 0
    return jest.fn(async () => {
      const s = statuses[Math.min(i++, statuses.length - 1)]
      if (s instanceof Error) throw s
      return { status: s }
    })
  }

  it("polls until paid and reports every answer", async () => {
    const fetchStatus = answers("pending", "pending", "paid")
    const seen: string[] = []
    const r = await waitForPayment({ fetchStatus, intervalMs: 1, timeoutMs: 5_000, onStatus: (s) => seen.push(s.status) })
    expect(r).toEqual({ outcome: "paid", last: { status: "paid" }, error: undefined })
    expect(seen).toEqual(["pending", "pending", "paid"])
  })

  it("stops on failed, and keeps asking through transient errors", async () => {
    const r = await waitForPayment({ fetchStatus: answers(new Error("502"), "pending", "failed"), intervalMs: 1, timeoutMs: 5_000 })
    expect(r.outcome).toBe("failed")
  })

  it("gives up at the deadline with the last answer and error", async () => {
    const err = new Error("down")
    const r = await waitForPayment({ fetchStatus: answers("pending", err), intervalMs: 5, timeoutMs: 40 })
    expect(r).toEqual({ outcome: "timeout", last: { status: "pending" }, error: err })
  })

  it("rejects when aborted, without asking again", async () => {
    const controller = new AbortController()
    const fetchStatus = answers("pending")
    const p = waitForPayment({ fetchStatus, intervalMs: 1_000, timeoutMs: 10_000, signal: controller.signal })
    await new Promise((r) => setTimeout(r, 10))
    controller.abort()
    await expect(p).rejects.toBeDefined()
    expect(fetchStatus).toHaveBeenCalledTimes(1)
  })
})

describe("completeWhenPaid", () => {
  const statuses = (...list: Array<{ status: "paid" | "pending" | "failed"; state?: string }>) => {
    let i = 0
    return jest.fn(async () => list[Math.min(i++, list.length - 1)])
  }
  const conflict = Object.assign(new Error("Cart is already being completed by another request"), { status: 409 })

  it("completes the cart once, when the session says paid", async () => {
    const completeCart = jest.fn(async () => ({ type: "order" as const, order: { id: "order_1" } }))
    const r = await completeWhenPaid({ fetchStatus: statuses({ status: "pending" }, { status: "paid" }), completeCart, intervalMs: 1 })
    expect(r).toEqual({ outcome: "order", order: { id: "order_1" } })
    expect(completeCart).toHaveBeenCalledTimes(1)
  })

  it("completes once a transfer exists, without waiting for the money", async () => {
    const completeCart = jest.fn(async () => ({ type: "order" as const, order: null }))
    const r = await completeWhenPaid({ fetchStatus: statuses({ status: "pending", state: "awaiting_transfer" }), completeCart, intervalMs: 1 })
    expect(r.outcome).toBe("order")
    expect(completeCart).toHaveBeenCalledTimes(1)
  })

  it("never completes a failed or unconfirmed payment, and stops at the deadline", async () => {
    const completeCart = jest.fn()
    expect((await completeWhenPaid({ fetchStatus: statuses({ status: "failed" }), completeCart, intervalMs: 1 })).outcome).toBe("failed")
    const fetchStatus = statuses({ status: "pending" })
    const r = await completeWhenPaid({ fetchStatus, completeCart, intervalMs: 5, timeoutMs: 30 })
    expect(r.outcome).toBe("confirming")
    expect(completeCart).not.toHaveBeenCalled()
    expect(fetchStatus.mock.calls.length).toBeLessThan(20)
  })

  it("waits at most a minute whatever it is asked", () => {
    expect(WAIT_LIMIT_MS).toBe(60_000)
  })

  it("after a 409 waits and completes once more; a cart back is 'confirming', never a second round", async () => {
    const completeCart = jest
      .fn()
      .mockRejectedValueOnce(conflict)
      .mockResolvedValueOnce({ type: "order", order: { id: "order_2" } })
    const r = await completeWhenPaid({ fetchStatus: statuses({ status: "paid" }), completeCart, intervalMs: 1, conflictWaitMs: 1 })
    expect(r).toEqual({ outcome: "order", order: { id: "order_2" } })
    expect(completeCart).toHaveBeenCalledTimes(2)

    const cartBack = jest.fn(async () => ({ type: "cart" as const, error: { message: "not authorized" } }))
    const r2 = await completeWhenPaid({ fetchStatus: statuses({ status: "paid" }), completeCart: cartBack, intervalMs: 1 })
    expect(r2.outcome).toBe("confirming")
    expect(cartBack).toHaveBeenCalledTimes(1)

    const twice = jest.fn().mockRejectedValue(conflict)
    const r3 = await completeWhenPaid({ fetchStatus: statuses({ status: "paid" }), completeCart: twice, intervalMs: 1, conflictWaitMs: 1 })
    expect(r3.outcome).toBe("confirming")
    expect(twice).toHaveBeenCalledTimes(2)
  })

  it("passes other completion errors on", async () => {
    const boom = new Error("Cart is empty")
    await expect(
      completeWhenPaid({ fetchStatus: statuses({ status: "paid" }), completeCart: jest.fn().mockRejectedValue(boom), intervalMs: 1 })
    ).rejects.toBe(boom)
  })

  it("recognises Medusa's 409 however the storefront got it", () => {
    expect(isCartCompletionConflict(conflict)).toBe(true)
    expect(isCartCompletionConflict({ response: { status: 409 } })).toBe(true)
    expect(isCartCompletionConflict(new Error("Cart is already being completed by another request."))).toBe(true)
    expect(isCartCompletionConflict(new Error("Cart is empty"))).toBe(false)
    expect(isCartCompletionConflict(null)).toBe(false)
  })
})

describe("browser safety", () => {
  it("imports only zod, its own files and types (no Node, no Medusa server code)", () => {
    const dir = path.join(__dirname, "..")
    const files = fs.readdirSync(dir).filter((f) => f.endsWith(".ts"))
    expect(files).toContain("index.ts")
    for (const f of files) {
      const src = fs.readFileSync(path.join(dir, f), "utf8")
      for (const m of src.matchAll(/^\s*(import|export)\s+(type\s+)?[^"']*?from\s+["']([^"']+)["']/gm)) {
        const [, , typeOnly, spec] = m
        const ok = spec === "zod" || spec.startsWith("./") || (!!typeOnly && spec === "../lib/failure-reason")
        if (!ok) throw new Error(`${f} imports "${spec}"${typeOnly ? " (type)" : ""}: not browser-safe`)
      }
      expect(src).not.toMatch(/\brequire\(|process\.env|apiKey|api_key/)
    }
  })
})
