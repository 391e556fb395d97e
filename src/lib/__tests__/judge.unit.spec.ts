import { judgeNotification } from "../judge"
import { parseOdemeOptions } from "../options"

const options = parseOdemeOptions({
  apiKey: "k",
  apiId: 1,
  baseUrl: "http://127.0.0.1:4010",
  backendUrl: "http://localhost:9000",
  storefrontUrl: "http://localhost:8000",
  exchangeRatesTry: { EUR: "45.00" },
})
const expected = { session_id: "payses_1", amount: "250.00", currency: "TRY" }
const n = { order_id: "payses_1", uuid: "u-1", status: "successful", amount: "250.00", currency: "TRY" }
const echo = { order_id: "payses_1", uuid: "u-1" }
const ok = { ...echo, is_valid: true, official_status: "successful" }

describe("judgeNotification (spec §6.2 rules 2–3)", () => {
  it("pays only a valid, successful, matching notification", () => {
    expect(judgeNotification(n, ok, expected, options)).toMatchObject({ kind: "paid", uuid: "u-1", amount: expect.any(String), currency: "TRY" })
    expect(judgeNotification({ ...n, amount: 250 }, ok, expected, options)).toMatchObject({ kind: "paid", uuid: "u-1", amount: expect.any(String), currency: "TRY" })
  })

  it("never pays when is_valid is false, whatever official_status says", () => {
    expect(judgeNotification(n, { ...echo, is_valid: false, official_status: "successful" }, expected, options).kind).toBe("invalid")
  })

  it("maps official failed and non-final statuses", () => {
    expect(judgeNotification(n, { ...echo, is_valid: true, official_status: "failed" }, expected, options)).toMatchObject({ kind: "failed", uuid: "u-1" })
    expect(judgeNotification(n, { ...echo, is_valid: true, official_status: "pending" }, expected, options)).toMatchObject({ kind: "pending" })
    expect(judgeNotification(n, { ...echo, is_valid: true, official_status: "" }, expected, options)).toMatchObject({ kind: "pending" })
  })

  it("an answer about another session or payment says nothing about this one", () => {
    expect(judgeNotification({ ...n, order_id: "payses_2" }, ok, expected, options).kind).toBe("invalid")
    expect(judgeNotification(n, { ...ok, order_id: "payses_2" }, expected, options).kind).toBe("invalid")
    expect(judgeNotification(n, { ...ok, uuid: "u-2" }, expected, options).kind).toBe("invalid")
  })

  it("never pays on an answer that does not itself name the notification's order and payment", () => {
    expect(judgeNotification(n, { is_valid: true, official_status: "successful" }, expected, options).kind).toBe("invalid")
    expect(judgeNotification(n, { is_valid: true, official_status: "successful", uuid: "u-1" }, expected, options).kind).toBe("invalid")
    expect(judgeNotification(n, { is_valid: true, official_status: "successful", order_id: "payses_1" }, expected, options).kind).toBe("invalid")
  })

  it("refuses a sandbox answer for a live store", () => {
    const live = { ...options, mode: "live" as const }
    expect(judgeNotification(n, { ...ok, mode: "sandbox" }, expected, live).kind).toBe("invalid")
    expect(judgeNotification(n, { ...ok, mode: "quick_checkout_fallback" }, expected, live).kind).toBe("paid")
    expect(judgeNotification(n, { ...ok, mode: "sandbox" }, expected, options).kind).toBe("paid")
  })

  it("another amount, another currency, a missing amount: a mismatch, never paid", () => {
    expect(judgeNotification({ ...n, amount: "249.99" }, ok, expected, options).kind).toBe("mismatch")
    expect(judgeNotification({ ...n, currency: "EUR" }, ok, expected, options).kind).toBe("mismatch")
    expect(judgeNotification({ ...n, amount: undefined }, ok, expected, options).kind).toBe("mismatch")
    expect(judgeNotification({ ...n, amount: "abc" }, ok, expected, options).kind).toBe("mismatch")
  })

  it("variant A accepts a TRY confirmation within the tolerance of the converted amount", () => {
    const a = { ...options, checkout: { ...options.checkout, currencyVariant: "A" as const } }
    const eur = { ...expected, amount: "10.00", currency: "EUR" }
    expect(judgeNotification({ ...n, amount: "450.00", currency: "TRY" }, ok, eur, a).kind).toBe("paid")
    expect(judgeNotification({ ...n, amount: "460.00", currency: "TRY" }, ok, eur, a).kind).toBe("paid")
    expect(judgeNotification({ ...n, amount: "480.00", currency: "TRY" }, ok, eur, a).kind).toBe("mismatch")
    // Variant B (default) never accepts a converted amount.
    expect(judgeNotification({ ...n, amount: "450.00", currency: "TRY" }, ok, eur, options).kind).toBe("mismatch")
  })
})

describe("moneyMismatch (every path that can pay uses it)", () => {
  const { moneyMismatch } = require("../judge")
  const session = { amount: "250.00", currency: "TRY" }
  it("matches after rounding to two decimals, whatever the number's shape", () => {
    expect(moneyMismatch(250, "try", session)).toBeNull()
    expect(moneyMismatch("250.004", "TRY", session)).toBeNull()
  })
  it("names what differs", () => {
    expect(moneyMismatch(249.99, "TRY", session)).toMatch(/amount 249.99 TRY differs/)
    expect(moneyMismatch(250, "EUR", session)).toMatch(/currency EUR differs/)
    expect(moneyMismatch(250, null, session)).toMatch(/currency \(none\)/)
    expect(moneyMismatch("abc", "TRY", session)).toMatch(/not a number/)
  })
})
