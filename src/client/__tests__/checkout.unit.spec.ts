import { buildQuickCheckoutForm, hostedCheckoutUrl, signQuickCheckout } from "../index"

const KEY = "sk_SECRET_do_not_leak_123"

const input = {
  baseUrl: "https://service.example/",
  apiId: 42,
  apiKey: KEY,
  amount: 200,
  currency: "try",
  orderId: "ORD-1",
  description: "Order ORD-1 (2 items)",
  successUrl: "https://shop.example/ok?cart=1",
  cancelUrl: "https://shop.example/cancel",
  ts: 1700000000,
}

describe("hostedCheckoutUrl", () => {
  it("encodes the slug as a path segment and the urls as query", () => {
    expect(
      hostedCheckoutUrl("https://service.example/", "çay & simit/2", 15, {
        successUrl: "https://shop.example/ok?a=1&b=2",
        cancelUrl: "https://shop.example/cancel",
      })
    ).toBe(
      "https://service.example/checkout/%C3%A7ay%20%26%20simit%2F2/15" +
        "?success_url=https%3A%2F%2Fshop.example%2Fok%3Fa%3D1%26b%3D2&cancel_url=https%3A%2F%2Fshop.example%2Fcancel"
    )
  })

  it("omits the query without urls and keeps a base path", () => {
    expect(hostedCheckoutUrl("http://127.0.0.1:4010", "p", 1)).toBe("http://127.0.0.1:4010/checkout/p/1")
    expect(hostedCheckoutUrl("https://h.example/odeme//", "p", 1, { cancelUrl: "https://x" })).toBe(
      "https://h.example/odeme/checkout/p/1?cancel_url=https%3A%2F%2Fx"
    )
  })

  it("rejects bad input", () => {
    expect(() => hostedCheckoutUrl("https://h", "", 1)).toThrow(TypeError)
    expect(() => hostedCheckoutUrl("https://h", "..", 1)).toThrow(TypeError)
    expect(() => hostedCheckoutUrl("https://h", "p", 0)).toThrow(TypeError)
    expect(() => hostedCheckoutUrl("https://h", "p", 1.5)).toThrow(TypeError)
    expect(() => hostedCheckoutUrl("nope", "p", 1)).toThrow(TypeError)
  })
})

describe("buildQuickCheckoutForm", () => {
  it("returns action, method and signed fields", () => {
    const form = buildQuickCheckoutForm(input)
    expect(form.action).toBe("https://service.example/checkout/quick")
    expect(form.method).toBe("POST")
    const { signature, ...unsigned } = form.fields
    expect(unsigned).toEqual({
      api_id: "42",
      amount: "200.00",
      currency: "TRY",
      description: "Order ORD-1 (2 items)",
      order_id: "ORD-1",
      success_url: "https://shop.example/ok?cart=1",
      cancel_url: "https://shop.example/cancel",
      ts: "1700000000",
    })
    expect(signature).toMatch(/^[0-9a-f]{64}$/)
    expect(signature).toBe(signQuickCheckout(unsigned, KEY))
    expect(Object.values(form.fields).every((v) => typeof v === "string")).toBe(true)
    expect(JSON.stringify(form)).not.toContain(KEY)
  })

  // §4.2: Quick Checkout takes TRY, USD, EUR and GBP.
  it.each(["try", "USD", "eur", "GBP", "gbp"])("signs a form in %s", (currency) => {
    const form = buildQuickCheckoutForm({ ...input, currency })
    const { signature, ...unsigned } = form.fields
    expect(unsigned.currency).toBe(currency.toUpperCase())
    expect(signature).toBe(signQuickCheckout(unsigned, KEY))
  })

  it("defaults ts to now", () => {
    const before = Math.floor(Date.now() / 1000)
    const form = buildQuickCheckoutForm({ ...input, ts: undefined })
    const ts = Number(form.fields.ts)
    expect(ts).toBeGreaterThanOrEqual(before)
    expect(ts).toBeLessThanOrEqual(before + 2)
  })

  it("formats string and decimal amounts", () => {
    expect(buildQuickCheckoutForm({ ...input, amount: "99.5" }).fields.amount).toBe("99.50")
    expect(buildQuickCheckoutForm({ ...input, amount: 0.1 + 0.2 }).fields.amount).toBe("0.30")
  })

  it("throws on an empty description and other bad input", () => {
    expect(() => buildQuickCheckoutForm({ ...input, description: "" })).toThrow(TypeError)
    expect(() => buildQuickCheckoutForm({ ...input, description: "   " })).toThrow(TypeError)
    expect(() => buildQuickCheckoutForm({ ...input, apiKey: "" })).toThrow(TypeError)
    expect(() => buildQuickCheckoutForm({ ...input, apiId: "" })).toThrow(TypeError)
    expect(() => buildQuickCheckoutForm({ ...input, amount: 0 })).toThrow(TypeError)
    expect(() => buildQuickCheckoutForm({ ...input, currency: "JPY" })).toThrow(TypeError)
    expect(() => buildQuickCheckoutForm({ ...input, successUrl: "/relative" })).toThrow(TypeError)
    expect(() => buildQuickCheckoutForm({ ...input, orderId: "" })).toThrow(TypeError)
  })

  it("error messages never contain the key", () => {
    for (const bad of [{ description: "" }, { amount: -1 }, { currency: "x" }, { ts: -5 }]) {
      try {
        buildQuickCheckoutForm({ ...input, ...bad } as typeof input)
        throw new Error("expected throw")
      } catch (e) {
        expect(String(e)).not.toContain(KEY)
        expect((e as Error).stack ?? "").not.toContain(KEY)
      }
    }
  })
})
