import fc from "fast-check"
import * as clientAmount from "../../client/amount"
import { buildQuickCheckoutForm } from "../../client/checkout"
import * as clientSignature from "../../client/signature"
import * as emulatorAmount from "../money"
import * as emulatorSignature from "../signature"
import { SIGNATURE_VECTORS } from "./signature-vectors"

/**
 * The plugin (src/client) and the emulator read spec §5.2 and the two-decimal
 * amounts each on their own. Both must agree with vectors computed outside
 * this code base, and with each other on generated inputs; a disagreement
 * means one of them misreads the spec, and every emulator-backed test would
 * otherwise hide it.
 */

// Fixed seed: a failure is reproducible; FAST_CHECK_SEED explores others.
const SEED = Number(process.env.FAST_CHECK_SEED ?? 1414)
const RUNS = { seed: SEED, numRuns: 400 }

/** Well-formed text (any code point, no lone surrogate), with the characters §5.2's encoding cares about made likely. */
const text = fc.oneof(
  fc.string({ unit: "grapheme", maxLength: 40 }),
  fc.string({ unit: fc.constantFrom(..." !'()*~-._+/&=?#%ıİçÇğĞ😀"), maxLength: 20 })
)
const twoDecimals = fc.bigInt({ min: 1n, max: 10n ** 15n }).map((c) => emulatorAmount.fromMinorUnits(c))
const quickCheckoutForm = fc.record(
  {
    api_id: fc.integer({ min: 1, max: 2 ** 31 }).map(String),
    amount: twoDecimals,
    currency: fc.constantFrom("TRY", "USD", "EUR", "GBP", "try", "Usd"),
    description: text,
    order_id: text,
    success_url: text,
    cancel_url: text,
    ts: fc.integer({ min: 1, max: 4_000_000_000 }).map(String),
  },
  { requiredKeys: ["api_id", "amount", "currency", "order_id", "success_url", "cancel_url", "ts"] }
)
const apiKey = text.filter((k) => k.length > 0)

describe("Quick Checkout signature: plugin and emulator", () => {
  it.each(SIGNATURE_VECTORS)("both give the fixed vector: $name", ({ key, form, canonical, signature }) => {
    expect(emulatorSignature.canonicalQuickCheckoutString(form)).toBe(canonical)
    expect(clientSignature.canonicalQuickCheckoutString(form)).toBe(canonical)
    expect(emulatorSignature.quickCheckoutSignature(form, key)).toBe(signature)
    expect(clientSignature.signQuickCheckout(form, key)).toBe(signature)
    const now = Number(form.ts) + 60
    const window = { maxAgeSeconds: 1800, maxFutureSkewSeconds: 60, nowSeconds: now }
    expect(emulatorSignature.checkQuickCheckoutSignature({ ...form, signature }, key, window)).toEqual({ ok: true })
    expect(clientSignature.verifyQuickCheckoutSignature(form, signature, key, { now })).toEqual({ ok: true })
  })

  it("agree on the canonical string and the signature of generated forms (description given or not)", () => {
    fc.assert(
      fc.property(quickCheckoutForm, apiKey, (form, key) => {
        expect(emulatorSignature.canonicalQuickCheckoutString(form)).toBe(clientSignature.canonicalQuickCheckoutString(form))
        expect(emulatorSignature.quickCheckoutSignature(form, key)).toBe(clientSignature.signQuickCheckout(form, key))
      }),
      RUNS
    )
  })

  it("the emulator accepts every form the plugin's builder signs, and refuses it once a signed field changes", () => {
    const amountInput = fc.oneof(twoDecimals, fc.integer({ min: 1, max: 10 ** 9 }), fc.double({ min: 0.01, max: 1e9, noNaN: true }))
    fc.assert(
      fc.property(quickCheckoutForm, apiKey, amountInput, (f, key, amount) => {
        const ts = Number(f.ts)
        const built = buildQuickCheckoutForm({
          baseUrl: "https://pay.example",
          apiId: f.api_id,
          apiKey: key,
          amount,
          currency: f.currency,
          // The builder refuses blank texts; keep the generated ones otherwise.
          description: f.description?.trim() ? f.description : "x",
          orderId: f.order_id.trim() ? f.order_id : "o",
          successUrl: "https://shop.example/ok?n=" + encodeURIComponent(f.success_url),
          cancelUrl: "https://shop.example/cancel",
          ts,
        })
        const window = { maxAgeSeconds: 1800, maxFutureSkewSeconds: 60, nowSeconds: ts }
        expect(emulatorSignature.checkQuickCheckoutSignature(built.fields, key, window)).toEqual({ ok: true })
        const changed = { ...built.fields, order_id: built.fields.order_id + "x" }
        expect(emulatorSignature.checkQuickCheckoutSignature(changed, key, window)).toEqual({ ok: false, reason: "bad_signature" })
      }),
      { ...RUNS, numRuns: 200 }
    )
  })
})

describe("two-decimal amounts: plugin and emulator", () => {
  const both = (v: string | number) => [emulatorAmount.formatAmount(v), clientAmount.formatAmount(v)]

  it.each([
    // Halves round away from zero on the decimal as written (the spec names no rule; see money.ts).
    ["0.005", "0.01"],
    ["0.004999", "0.00"],
    ["1.005", "1.01"],
    ["2.675", "2.68"],
    ["-0.005", "-0.01"],
    ["-0.004", "0.00"],
    ["199.995", "200.00"],
    ["0", "0.00"],
    ["200", "200.00"],
    ["007.5", "7.50"],
    ["123456789012345678901234567890.125", "123456789012345678901234567890.13"],
    // JSON numbers are read as the decimal they are written as, never through float arithmetic.
    [1.005, "1.01"],
    [0.1 + 0.2, "0.30"],
    [249.9, "249.90"],
    [200, "200.00"],
    [-0, "0.00"],
    [1e21, "1000000000000000000000.00"],
    [5e-324, "0.00"],
    [1.5e-7, "0.00"],
    [0.0051, "0.01"],
  ] as Array<[string | number, string]>)("%p → %s on both sides", (input, expected) => {
    expect(both(input)).toEqual([expected, expected])
  })

  it("agree on generated decimal strings (any number of decimals, large values, halves)", () => {
    const decimal = fc
      .tuple(fc.boolean(), fc.bigInt({ min: 0n, max: 10n ** 30n }), fc.string({ unit: fc.constantFrom(..."0123456789"), maxLength: 8 }), fc.boolean())
      .map(([negative, whole, fraction, half]) => {
        const frac = half ? fraction.slice(0, 2).padEnd(2, "0") + "5" : fraction
        return `${negative ? "-" : ""}${whole}${frac ? "." + frac : ""}`
      })
    fc.assert(
      fc.property(decimal, (d) => {
        const [emulator, client] = both(d)
        expect(emulator).toBe(client)
        expect(emulatorAmount.toMinorUnits(d)).toBe(clientAmount.toMinorUnits(d))
      }),
      { ...RUNS, numRuns: 1000 }
    )
  })

  it("agree on generated JSON numbers (integers, doubles, very large and very small)", () => {
    const number = fc.oneof(
      fc.integer(),
      fc.maxSafeInteger(),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.double({ min: -1000, max: 1000, noNaN: true })
    )
    fc.assert(
      fc.property(number, (n) => {
        const [emulator, client] = both(n)
        expect(emulator).toBe(client)
        expect(emulatorAmount.amountsEqual(n, client)).toBe(true)
        expect(clientAmount.amountsEqual(n, emulator)).toBe(true)
      }),
      { ...RUNS, numRuns: 1000 }
    )
  })
})
