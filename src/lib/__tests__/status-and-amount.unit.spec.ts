import { BigNumber, MedusaError } from "@medusajs/framework/utils"
import { chargeableAmount } from "../amount-rules"
import { CHECKOUT_CURRENCIES, parseOdemeOptions } from "../options"
import { transferAnswer } from "../judge"
import { toSessionStatus, toStorefrontStatus } from "../status"

describe("the one status mapping", () => {
  it("maps sale_status (spec §3.1) to answers, with the session's money checked", () => {
    const row = { service_uuid: "u-1", amount: "250.00", currency: "TRY" }
    const record = (sale_status: number, br_price = 250, br_currency = "TRY") => ({ sale_status, br_price, br_currency }) as never
    expect(transferAnswer(record(0), row)).toEqual({ kind: "pending", uuid: "u-1" })
    expect(transferAnswer(record(1), row)).toMatchObject({ kind: "paid", uuid: "u-1", amount: "250", currency: "TRY" })
    expect(transferAnswer(record(1, 249), row)).toMatchObject({ kind: "mismatch", uuid: "u-1" })
    expect(transferAnswer(record(2), row)).toMatchObject({ kind: "failed", uuid: "u-1" })
    expect(toSessionStatus("awaiting_transfer")).toBe("pending_authorization")
    expect(toSessionStatus("paid")).toBe("captured")
    expect(toSessionStatus("failed")).toBe("error")
    expect(toSessionStatus("unknown")).toBe("requires_more")
  })

  it("maps storefront words", () => {
    expect(toStorefrontStatus("awaiting_transfer")).toBe("pending")
    expect(toStorefrontStatus("expired")).toBe("failed")
    expect(toSessionStatus("review")).toBe("requires_more")
    expect(toSessionStatus("canceled")).toBe("canceled")
  })
})

describe("chargeableAmount", () => {
  const base = {
    apiKey: "k",
    apiId: 1,
    baseUrl: "https://x",
    backendUrl: "https://api.shop",
    storefrontUrl: "https://shop",
  }
  const sandbox = parseOdemeOptions(base)
  const live = parseOdemeOptions({ ...base, mode: "live", minimumAmountTry: "100", exchangeRatesTry: { USD: "40.00" } })

  it("formats BigNumber amounts and upper-cases the currency", () => {
    expect(chargeableAmount({ amount: new BigNumber(250) as never, currency_code: "try" }, ["TRY"], sandbox, "X")).toEqual({
      amount: "250.00",
      currency: "TRY",
    })
  })

  // §4.2: the Quick Checkout provider offers TRY, USD, EUR and GBP.
  it.each(["try", "usd", "eur", "gbp"])("lets Quick Checkout charge a %s cart", (code) => {
    expect(chargeableAmount({ amount: 10, currency_code: code }, CHECKOUT_CURRENCIES, sandbox, "Quick Checkout")).toEqual({
      amount: "10.00",
      currency: code.toUpperCase(),
    })
  })

  it("refuses other currencies, zero and junk with a MedusaError", () => {
    for (const input of [
      { amount: 10, currency_code: "gbp" },
      { amount: 0, currency_code: "try" },
      { amount: "abc", currency_code: "try" },
    ]) {
      expect(() => chargeableAmount(input, ["TRY", "USD", "EUR"], sandbox, "Bank transfer")).toThrow(MedusaError)
    }
    expect(() => chargeableAmount({ amount: 10, currency_code: "gbp" }, ["TRY"], sandbox, "Bank transfer")).toThrow(
      /supports TRY; this cart is in GBP/
    )
  })

  it("applies the live TRY minimum, converted for other currencies", () => {
    expect(() => chargeableAmount({ amount: "99.99", currency_code: "try" }, ["TRY", "USD"], live, "X")).toThrow(/below the minimum of 100.00 TRY/)
    expect(chargeableAmount({ amount: "100", currency_code: "try" }, ["TRY", "USD"], live, "X").amount).toBe("100.00")
    expect(() => chargeableAmount({ amount: "2.49", currency_code: "usd" }, ["TRY", "USD"], live, "X")).toThrow(/minimum/)
    expect(chargeableAmount({ amount: "2.50", currency_code: "usd" }, ["TRY", "USD"], live, "X").amount).toBe("2.50")
    // No minimum in sandbox.
    expect(chargeableAmount({ amount: "1", currency_code: "try" }, ["TRY"], sandbox, "X").amount).toBe("1.00")
  })
})

describe("failureReason", () => {
  const { failureReason } = require("../failure-reason")
  it.each([
    ["Yetersiz bakiye / Insufficient balance", "insufficient_funds"],
    ["3D Secure doğrulaması başarısız / 3D Secure authentication failed", "authentication_failed"],
    ["İşlem iptal edildi", "canceled"],
    ["<script>alert(1)</script> call +90 555", "declined"],
    [undefined, "declined"],
  ])("maps %p to %p", (message, code) => {
    expect(failureReason(message)).toBe(code)
  })
})
