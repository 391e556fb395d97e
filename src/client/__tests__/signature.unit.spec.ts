import { canonicalQuickCheckoutString, rfc3986Encode, safeEqual, signQuickCheckout, verifyQuickCheckoutSignature } from "../signature"

/**
 * Fixed vectors computed once, outside this code base:
 *   canonical: python3 -c "from urllib.parse import quote; ..." (quote(v, safe='-._~'), fields sorted)
 *   digest:    printf %s '<canonical>' | openssl dgst -sha256 -hmac '<key>'
 */
const VECTORS = [
  {
    name: "plain fields",
    key: "test_key_123",
    fields: {
      api_id: 1001,
      amount: 200,
      currency: "try",
      description: "Order 1",
      order_id: "payses_01",
      success_url: "https://shop.example/ok",
      cancel_url: "https://shop.example/cancel",
      ts: 1700000000,
    },
    canonical:
      "amount=200.00&api_id=1001&cancel_url=https%3A%2F%2Fshop.example%2Fcancel&currency=TRY&description=Order%201&order_id=payses_01&success_url=https%3A%2F%2Fshop.example%2Fok&ts=1700000000",
    // printf %s '<canonical>' | openssl dgst -sha256 -hmac 'test_key_123'
    signature: "977e08d3131109f8c65d60f94e35ee13011d6070ab261d3ca8b093c5947374f5",
  },
  {
    name: "spaces, + / ~ * ' ( ) ! & # % and a key with reserved characters",
    key: "sk_sandbox_!*'()",
    fields: {
      api_id: "7",
      amount: "1234.5",
      currency: "EUR",
      description: "Kahve & çay (2*) it's ~ok +/ 100%",
      order_id: "ord+1/2~a*b",
      success_url: "https://shop.example/return?x=1&y=a b",
      cancel_url: "https://shop.example/c#frag",
      ts: "1763769600",
    },
    canonical:
      "amount=1234.50&api_id=7&cancel_url=https%3A%2F%2Fshop.example%2Fc%23frag&currency=EUR&description=Kahve%20%26%20%C3%A7ay%20%282%2A%29%20it%27s%20~ok%20%2B%2F%20100%25&order_id=ord%2B1%2F2~a%2Ab&success_url=https%3A%2F%2Fshop.example%2Freturn%3Fx%3D1%26y%3Da%20b&ts=1763769600",
    // printf %s '<canonical>' | openssl dgst -sha256 -hmac "sk_sandbox_!*'()"
    signature: "ff9fa81bd1c55cba362a0943cfbfb08c8077c728796ce5dac9d5b3b591d110e4",
  },
  {
    name: "Turkish letters ç ğ ı ö ş ü İ in values and key",
    key: "anahtar-İ",
    fields: {
      api_id: 42,
      amount: 0.1,
      currency: "usd",
      description: "Çiğdem Işık Öğüş ğüşiöç İstanbul",
      order_id: "sipariş-ÜĞ",
      success_url: "https://mağaza.example/başarılı",
      cancel_url: "https://mağaza.example/iptal",
      ts: 1800000000,
    },
    canonical:
      "amount=0.10&api_id=42&cancel_url=https%3A%2F%2Fma%C4%9Faza.example%2Fiptal&currency=USD&description=%C3%87i%C4%9Fdem%20I%C5%9F%C4%B1k%20%C3%96%C4%9F%C3%BC%C5%9F%20%C4%9F%C3%BC%C5%9Fi%C3%B6%C3%A7%20%C4%B0stanbul&order_id=sipari%C5%9F-%C3%9C%C4%9E&success_url=https%3A%2F%2Fma%C4%9Faza.example%2Fba%C5%9Far%C4%B1l%C4%B1&ts=1800000000",
    // printf %s '<canonical>' | openssl dgst -sha256 -hmac 'anahtar-İ'
    signature: "262fde7b7ae82369932e08059f052e18b445102792a7047c9304f914aba64e12",
  },
]

describe("Quick Checkout signer (spec §5.2)", () => {
  it.each(VECTORS)("builds the canonical string: $name", ({ fields, canonical }) => {
    expect(canonicalQuickCheckoutString(fields)).toBe(canonical)
  })

  it.each(VECTORS)("matches the openssl vector: $name", ({ fields, key, signature }) => {
    expect(signQuickCheckout(fields, key)).toBe(signature)
  })

  it("encodes the characters encodeURIComponent leaves alone", () => {
    expect(rfc3986Encode("!'()*")).toBe("%21%27%28%29%2A")
    expect(rfc3986Encode("a b~c-d_e.f")).toBe("a%20b~c-d_e.f")
  })

  it("ignores the signature field and unknown fields", () => {
    const base = VECTORS[0]
    const withExtras = { ...base.fields, signature: "abc", foo: "bar" } as Record<string, unknown>
    expect(signQuickCheckout(withExtras, base.key)).toBe(base.signature)
  })

  it("signs Medusa BigNumber-like amounts without float error", () => {
    const bn = { raw: { value: "200", precision: 20 }, toString: () => "200" }
    expect(signQuickCheckout({ ...VECTORS[0].fields, amount: bn }, VECTORS[0].key)).toBe(VECTORS[0].signature)
    expect(canonicalQuickCheckoutString({ amount: 0.1 + 0.2 })).toBe("amount=0.30")
  })

  it("leaves an omitted field out of the signed string", () => {
    expect(canonicalQuickCheckoutString({ order_id: "a", amount: "1" })).toBe("amount=1.00&order_id=a")
  })

  it("refuses to sign without a key", () => {
    expect(() => signQuickCheckout(VECTORS[0].fields, "")).toThrow(new TypeError("An API key is required to sign a Quick Checkout request"))
  })
})

describe("verifyQuickCheckoutSignature", () => {
  const v = VECTORS[0]
  const ts = Number(v.fields.ts)
  const now = ts + 60

  it("accepts a valid signature inside the window", () => {
    expect(verifyQuickCheckoutSignature(v.fields, v.signature, v.key, { now })).toEqual({ ok: true })
  })

  it("accepts an upper-case hex signature", () => {
    expect(verifyQuickCheckoutSignature(v.fields, v.signature.toUpperCase(), v.key, { now }).ok).toBe(true)
  })

  it("refuses a tampered field, a wrong key and a missing signature", () => {
    expect(verifyQuickCheckoutSignature({ ...v.fields, amount: "201.00" }, v.signature, v.key, { now })).toEqual({
      ok: false,
      reason: "bad_signature",
    })
    expect(verifyQuickCheckoutSignature(v.fields, v.signature, "other", { now }).ok).toBe(false)
    expect(verifyQuickCheckoutSignature(v.fields, "", v.key, { now })).toEqual({ ok: false, reason: "missing_signature" })
  })

  it("refuses an expired ts (default 30 minutes) and honours a configured window", () => {
    expect(verifyQuickCheckoutSignature(v.fields, v.signature, v.key, { now: ts + 30 * 60 }).ok).toBe(true)
    expect(verifyQuickCheckoutSignature(v.fields, v.signature, v.key, { now: ts + 30 * 60 + 1 })).toEqual({
      ok: false,
      reason: "expired",
    })
    expect(verifyQuickCheckoutSignature(v.fields, v.signature, v.key, { now: ts + 120, maxAgeSeconds: 60 }).ok).toBe(false)
  })

  it("refuses a ts from the future beyond the skew", () => {
    expect(verifyQuickCheckoutSignature(v.fields, v.signature, v.key, { now: ts - 30 }).ok).toBe(true)
    expect(verifyQuickCheckoutSignature(v.fields, v.signature, v.key, { now: ts - 61 })).toEqual({
      ok: false,
      reason: "future_ts",
    })
  })
})

describe("safeEqual", () => {
  it("compares by content and length", () => {
    expect(safeEqual("abc", "abc")).toBe(true)
    expect(safeEqual("abc", "abd")).toBe(false)
    expect(safeEqual("abc", "abcd")).toBe(false)
    expect(safeEqual("", "")).toBe(true)
  })
})

// Boundaries and each refusal, exactly (npm run mutate).
describe("verifyQuickCheckoutSignature: boundaries", () => {
  const KEY = "k_boundaries"
  const TS = 1_700_000_000
  const signed = (over: Record<string, unknown> = {}) => {
    const fields = {
      api_id: 1,
      amount: "10.00",
      currency: "TRY",
      description: "d",
      order_id: "o",
      success_url: "https://s/ok",
      cancel_url: "https://s/no",
      ts: TS,
      ...over,
    }
    return { fields, signature: signQuickCheckout(fields, KEY) }
  }

  it("accepts exactly the default skew of 60 s and exactly 30 minutes, not a second more", () => {
    const { fields, signature } = signed()
    expect(verifyQuickCheckoutSignature(fields, signature, KEY, { now: TS - 60 })).toEqual({ ok: true })
    expect(verifyQuickCheckoutSignature(fields, signature, KEY, { now: TS - 61 })).toEqual({ ok: false, reason: "future_ts" })
    expect(verifyQuickCheckoutSignature(fields, signature, KEY, { now: TS - 10, maxFutureSkewSeconds: 5 })).toEqual({
      ok: false,
      reason: "future_ts",
    })
    expect(verifyQuickCheckoutSignature(fields, signature, KEY, { now: TS + 1800 })).toEqual({ ok: true })
    expect(verifyQuickCheckoutSignature(fields, signature, KEY, { now: TS + 1801 })).toEqual({ ok: false, reason: "expired" })
  })

  it("uses the clock when no time is given", () => {
    const now = Math.floor(Date.now() / 1000)
    const fresh = signed({ ts: now })
    expect(verifyQuickCheckoutSignature(fresh.fields, fresh.signature, KEY)).toEqual({ ok: true })
    const old = signed({ ts: now - 1801 })
    expect(verifyQuickCheckoutSignature(old.fields, old.signature, KEY)).toEqual({ ok: false, reason: "expired" })
  })

  it("names each refusal", () => {
    const { fields, signature } = signed()
    for (const s of [undefined, null, ""])
      expect(verifyQuickCheckoutSignature(fields, s, KEY, { now: TS })).toEqual({ ok: false, reason: "missing_signature" })
    expect(verifyQuickCheckoutSignature(fields, signature.toUpperCase(), KEY, { now: TS })).toEqual({ ok: true })
    expect(verifyQuickCheckoutSignature({ ...fields, order_id: "p" }, signature, KEY, { now: TS })).toEqual({ ok: false, reason: "bad_signature" })
    for (const ts of [undefined, "", "1.5", "soon"]) {
      const s = signed({ ts })
      expect(verifyQuickCheckoutSignature(s.fields, s.signature, KEY, { now: TS })).toEqual({ ok: false, reason: "missing_ts" })
    }
  })

  it("normalises what it signs: null and undefined left out, amount two decimals, currency upper-cased", () => {
    expect(canonicalQuickCheckoutString({ amount: 5, currency: "eur", description: null, order_id: undefined, ts: 7 } as never)).toBe(
      "amount=5.00&currency=EUR&ts=7"
    )
    expect(rfc3986Encode("a b!'()*~")).toBe("a%20b%21%27%28%29%2A~")
  })
})
