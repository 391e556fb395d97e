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
    expect(judgeNotification({ ...n, amount: 250 }, ok, expected, options)).toMatchObject({
      kind: "paid",
      uuid: "u-1",
      amount: expect.any(String),
      currency: "TRY",
    })
  })

  it("never pays when is_valid is false, whatever official_status says", () => {
    expect(judgeNotification(n, { ...echo, is_valid: false, official_status: "successful" }, expected, options).kind).toBe("invalid")
  })

  it("maps official failed and non-final statuses", () => {
    expect(judgeNotification(n, { ...echo, is_valid: true, official_status: "failed" }, expected, options)).toMatchObject({
      kind: "failed",
      uuid: "u-1",
    })
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

  it("never pays a live store on a sandbox answer: a success is the wrong key (an item), anything else is refused", () => {
    const live = { ...options, mode: "live" as const }
    expect(judgeNotification(n, { ...ok, mode: "sandbox" }, expected, live).kind).toBe("sandbox_paid")
    expect(judgeNotification(n, { ...ok, official_status: "failed", mode: "sandbox" }, expected, live).kind).toBe("invalid")
    expect(judgeNotification(n, { ...ok, mode: "quick_checkout_fallback" }, expected, live).kind).toBe("paid")
    expect(judgeNotification(n, { ...ok, mode: "sandbox" }, expected, options).kind).toBe("paid")
  })

  it("another amount, another currency, an unreadable amount: a mismatch, never paid", () => {
    expect(judgeNotification({ ...n, amount: "249.99" }, ok, expected, options).kind).toBe("mismatch")
    expect(judgeNotification({ ...n, currency: "EUR" }, ok, expected, options).kind).toBe("mismatch")
    expect(judgeNotification({ ...n, amount: "abc" }, ok, expected, options).kind).toBe("mismatch")
    expect(judgeNotification({ ...n, amount: '{"value":250}' }, ok, expected, options).kind).toBe("mismatch")
    expect(judgeNotification({ ...n, currency: "XTL" }, ok, expected, options).kind).toBe("mismatch")
  })

  it("an amount or currency left out (or null, or blank) is the session's: the service charges what the plugin signed", () => {
    for (const amount of [undefined, null, "", "  "]) {
      expect(judgeNotification({ ...n, amount }, ok, expected, options)).toEqual({
        kind: "paid",
        uuid: "u-1",
        amount: "250.00",
        currency: "TRY",
        type: null,
      })
    }
    for (const currency of [undefined, null, ""]) {
      expect(judgeNotification({ ...n, currency }, ok, expected, options)).toMatchObject({ kind: "paid", currency: "TRY" })
    }
    // Left out, it cannot differ; there, it is compared.
    expect(judgeNotification({ ...n, amount: null, currency: "EUR" }, ok, expected, options).kind).toBe("mismatch")
    expect(judgeNotification({ ...n, amount: "249.99", currency: null }, ok, expected, options).kind).toBe("mismatch")
  })

  it("reads the lira written TL as TRY", () => {
    for (const currency of ["TL", "tl", " Tl "]) {
      expect(judgeNotification({ ...n, currency }, ok, expected, options)).toMatchObject({ kind: "paid", currency: "TRY" })
    }
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

// Each answer written out whole, so that a changed field, case rule or boundary fails (npm run mutate).
describe("judgeNotification: the exact answers", () => {
  const live = { ...options, mode: "live" as const }
  const a = { ...options, checkout: { ...options.checkout, currencyVariant: "A" as const } }
  const eur = { ...expected, amount: "10.00", currency: "EUR" }

  it("paid carries the notification's uuid, amount as sent, upper-cased currency and type", () => {
    expect(judgeNotification({ ...n, currency: "try", type: "credit_card" }, ok, expected, options)).toEqual({
      kind: "paid",
      uuid: "u-1",
      amount: "250.00",
      currency: "TRY",
      type: "credit_card",
    })
    expect(judgeNotification({ ...n, amount: 250 }, ok, expected, options)).toEqual({
      kind: "paid",
      uuid: "u-1",
      amount: "250",
      currency: "TRY",
      type: null,
    })
  })

  it("reads official_status and mode in any case", () => {
    expect(judgeNotification(n, { ...echo, is_valid: true, official_status: "SUCCESSFUL" }, expected, options).kind).toBe("paid")
    expect(judgeNotification(n, { ...echo, is_valid: true, official_status: "Failed" }, expected, options)).toEqual({
      kind: "failed",
      uuid: "u-1",
      type: null,
    })
    expect(judgeNotification({ ...n, type: "bank_transfer" }, { ...echo, is_valid: true, official_status: "failed" }, expected, options)).toEqual({
      kind: "failed",
      uuid: "u-1",
      type: "bank_transfer",
    })
    expect(judgeNotification(n, { ...echo, is_valid: true, official_status: "pending" }, expected, options)).toEqual({ kind: "pending", uuid: "u-1" })
    expect(judgeNotification(n, { ...ok, mode: "SANDBOX" }, expected, live)).toEqual({ kind: "sandbox_paid", uuid: "u-1", type: null })
    expect(judgeNotification(n, { ...ok, official_status: "pending", mode: "SANDBOX" }, expected, live)).toEqual({
      kind: "invalid",
      reason: "the verify endpoint answered in sandbox mode for a live store",
    })
    expect(judgeNotification(n, { ...ok, mode: undefined }, expected, live).kind).toBe("paid")
  })

  it("names why an answer is invalid", () => {
    expect(judgeNotification(n, { ...echo, is_valid: false, official_status: "successful" }, expected, options)).toEqual({
      kind: "invalid",
      reason: "the verify endpoint answered is_valid: false",
    })
    expect(judgeNotification(n, { ...ok, order_id: "payses_2" }, expected, options)).toEqual({
      kind: "invalid",
      reason: "verify answered for order payses_2, not payses_1",
    })
    expect(judgeNotification(n, { ...ok, uuid: "u-2" }, expected, options)).toEqual({
      kind: "invalid",
      reason: "verify answered for payment u-2, not u-1",
    })
    expect(judgeNotification(n, { ...ok, order_id: "payses_1", uuid: "u-1" }, expected, options).kind).toBe("paid")
    expect(judgeNotification({ ...n, order_id: "payses_2" }, { ...ok, order_id: "payses_2" }, expected, options)).toEqual({
      kind: "invalid",
      reason: "notification is for payses_2, not session payses_1",
    })
  })

  it("a mismatch carries what the notification said and why", () => {
    expect(judgeNotification({ ...n, amount: "249.99", currency: "try" }, ok, expected, options)).toEqual({
      kind: "mismatch",
      uuid: "u-1",
      amount: "249.99",
      currency: "TRY",
      reason: "amount 249.99 TRY differs from the session's 250.00 TRY",
      type: null,
    })
    expect(judgeNotification({ ...n, amount: null, currency: "EUR" }, ok, expected, options)).toMatchObject({
      kind: "mismatch",
      amount: "250.00",
      currency: "EUR",
      reason: "currency EUR differs from the session's TRY",
    })
    expect(judgeNotification({ ...n, amount: "abc" }, ok, expected, options)).toMatchObject({
      reason: 'the notification amount "abc" is not a number',
    })
    expect(judgeNotification({ ...n, currency: "EUR" }, ok, expected, options)).toMatchObject({
      reason: "currency EUR differs from the session's TRY",
    })
    expect(judgeNotification({ ...n, amount: "450.00", currency: "TRY" }, ok, eur, options)).toMatchObject({
      reason: "currency TRY differs from the session's EUR",
    })
  })

  it("variant A: within the tolerance on both sides, inclusive; only a TRY confirmation; needs a rate", () => {
    // 10.00 EUR × 45 = 450.00 TRY; 3 % = 13.50 TRY.
    for (const amount of ["463.50", "436.50", "450.00"]) {
      expect(judgeNotification({ ...n, amount, currency: "TRY" }, ok, eur, a)).toEqual({
        kind: "paid",
        uuid: "u-1",
        amount,
        currency: "TRY",
        type: null,
      })
    }
    for (const amount of ["463.51", "436.49"]) {
      expect(judgeNotification({ ...n, amount, currency: "TRY" }, ok, eur, a)).toMatchObject({
        kind: "mismatch",
        reason: `TRY amount ${amount} is not within 3% of 10.00 EUR converted`,
      })
    }
    expect(judgeNotification({ ...n, amount: "450.00", currency: "TRY" }, ok, { ...eur, currency: "eur" }, a).kind).toBe("paid")
    expect(judgeNotification({ ...n, amount: "10.00", currency: "USD" }, ok, eur, a)).toMatchObject({
      reason: "currency USD differs from the session's EUR",
    })
    expect(judgeNotification({ ...n, amount: "400.00", currency: "TRY" }, ok, { ...eur, currency: "USD" }, a)).toMatchObject({
      kind: "mismatch",
      reason: "no exchange rate configured for USD to check a TRY confirmation",
    })
  })
})

describe("transferAnswer and long amounts, exactly", () => {
  const { transferAnswer, moneyMismatch } = require("../judge")
  const payment = { service_uuid: "u-9", amount: "150.00", currency: "TRY" }
  const record = (over: Record<string, unknown>) => ({
    br_tracking_no: "1",
    br_name: "A",
    br_price: 150,
    br_currency: "TRY",
    br_bank_name: "B",
    br_iban: "I",
    sale_status: 1,
    sale_date: 1,
    ...over,
  })

  it("answers paid, failed, pending and mismatch with the transfer's own fields", () => {
    expect(transferAnswer(record({ br_currency: "try" }), payment)).toEqual({
      kind: "paid",
      uuid: "u-9",
      amount: "150",
      currency: "TRY",
      type: "bank_transfer",
    })
    expect(transferAnswer(record({ sale_status: 2 }), payment)).toEqual({ kind: "failed", uuid: "u-9", type: "bank_transfer" })
    expect(transferAnswer(record({ sale_status: 0 }), payment)).toEqual({ kind: "pending", uuid: "u-9" })
    expect(transferAnswer(record({ br_price: 149.99 }), payment)).toEqual({
      kind: "mismatch",
      uuid: "u-9",
      amount: "149.99",
      currency: "TRY",
      reason: "transfer record: amount 149.99 TRY differs from the session's 150.00 TRY",
      type: "bank_transfer",
    })
    expect(transferAnswer(record({ br_currency: null }), payment)).toMatchObject({
      kind: "mismatch",
      currency: "",
      reason: "transfer record: currency (none) differs from the session's TRY",
    })
  })

  it("quotes at most 30 characters of an amount that is not a number", () => {
    const long = `x${"9".repeat(40)}`
    expect(moneyMismatch(long, "TRY", payment)).toBe(`the reported amount "${long.slice(0, 30)}" is not a number`)
    expect(judgeNotification({ ...n, amount: long }, ok, expected, options)).toMatchObject({
      reason: `the notification amount "${long.slice(0, 30)}" is not a number`,
    })
  })
})
