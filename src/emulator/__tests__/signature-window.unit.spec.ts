import { canonicalQuickCheckoutString, checkQuickCheckoutSignature, percentEncode, quickCheckoutSignature, sameSecret } from "../signature"

const KEY = "sandbox_test_key_0001"
const NOW = 1_700_000_000
const form = (over: Record<string, string> = {}) => {
  const f: Record<string, string> = {
    api_id: "1001",
    amount: "200.00",
    currency: "TRY",
    description: "Sipariş",
    order_id: "o1",
    success_url: "https://s.example/ok",
    cancel_url: "https://s.example/no",
    ts: String(NOW),
    ...over,
  }
  return { ...f, signature: quickCheckoutSignature(f, KEY) }
}
const window = { maxAgeSeconds: 1800, maxFutureSkewSeconds: 60, nowSeconds: NOW }

// The emulator's judgement of a Quick Checkout form (§5.2, §8), boundary by boundary.
describe("checkQuickCheckoutSignature", () => {
  it("accepts a signed form up to exactly 30 minutes old and 60 s ahead, not one second more", () => {
    expect(checkQuickCheckoutSignature(form({ ts: String(NOW - 1800) }), KEY, window)).toEqual({ ok: true })
    expect(checkQuickCheckoutSignature(form({ ts: String(NOW - 1801) }), KEY, window)).toEqual({ ok: false, reason: "expired" })
    expect(checkQuickCheckoutSignature(form({ ts: String(NOW + 60) }), KEY, window)).toEqual({ ok: true })
    expect(checkQuickCheckoutSignature(form({ ts: String(NOW + 61) }), KEY, window)).toEqual({ ok: false, reason: "future_ts" })
  })

  it("judges the signature first, then ts", () => {
    expect(checkQuickCheckoutSignature({ ...form(), signature: "" }, KEY, window)).toEqual({ ok: false, reason: "missing_signature" })
    expect(checkQuickCheckoutSignature({ ...form(), signature: "   " }, KEY, window)).toEqual({ ok: false, reason: "missing_signature" })
    const { signature: _s, ...unsigned } = form()
    expect(checkQuickCheckoutSignature(unsigned, KEY, window)).toEqual({ ok: false, reason: "missing_signature" })
    expect(checkQuickCheckoutSignature({ ...form(), amount: "2.00" }, KEY, window)).toEqual({ ok: false, reason: "bad_signature" })
    expect(checkQuickCheckoutSignature(form({ ts: String(NOW - 99999) }), "other", window)).toEqual({ ok: false, reason: "bad_signature" })
    expect(checkQuickCheckoutSignature(form({ ts: "soon" }), KEY, window)).toEqual({ ok: false, reason: "missing_ts" })
    expect(checkQuickCheckoutSignature(form({ ts: "1234567890123" }), KEY, window)).toEqual({ ok: false, reason: "missing_ts" })
    expect(checkQuickCheckoutSignature(form({ ts: ` ${NOW}` }), KEY, window)).toEqual({ ok: false, reason: "missing_ts" })
    // A lone surrogate cannot be encoded, so no merchant could have signed it.
    expect(checkQuickCheckoutSignature({ ...form(), order_id: "\ud800" }, KEY, window)).toEqual({ ok: false, reason: "bad_signature" })
  })

  it("takes the signature in either hex case and with spaces around it", () => {
    const f = form()
    expect(checkQuickCheckoutSignature({ ...f, signature: ` ${f.signature.toUpperCase()} ` }, KEY, window)).toEqual({ ok: true })
  })

  it("uses the clock when no time is given", () => {
    const now = Math.floor(Date.now() / 1000)
    expect(checkQuickCheckoutSignature(form({ ts: String(now) }), KEY, { maxAgeSeconds: 1800, maxFutureSkewSeconds: 60 })).toEqual({ ok: true })
    expect(checkQuickCheckoutSignature(form({ ts: String(now - 1900) }), KEY, { maxAgeSeconds: 1800, maxFutureSkewSeconds: 60 })).toEqual({
      ok: false,
      reason: "expired",
    })
  })

  it("signs the fields it received, sorted, currency upper-cased, RFC 3986", () => {
    expect(canonicalQuickCheckoutString({ ts: "1", currency: "try", amount: "1.00", extra: "x", signature: "s" })).toBe(
      "amount=1.00&currency=TRY&ts=1"
    )
    expect(canonicalQuickCheckoutString({ description: "" })).toBe("description=")
    expect(percentEncode("a b!'()*~._-")).toBe("a%20b%21%27%28%29%2A~._-")
  })

  it("compares secrets by content and length", () => {
    expect(sameSecret("abc", "abc")).toBe(true)
    expect(sameSecret("abc", "abd")).toBe(false)
    expect(sameSecret("abc", "abcd")).toBe(false)
  })
})
