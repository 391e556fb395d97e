import { BigNumber, MedusaError } from "@medusajs/framework/utils"
import { checkAmount } from "../amount-rules"
import { parseOdemeOptions } from "../options"
import { stateFromNotificationStatus, stateFromSaleStatus, toSessionStatus, toStorefrontStatus } from "../status"

describe("the one status mapping", () => {
  it("maps sale_status (spec §3.1) to Medusa session statuses", () => {
    expect(toSessionStatus(stateFromSaleStatus(0))).toBe("pending_authorization")
    expect(toSessionStatus(stateFromSaleStatus(1))).toBe("captured")
    expect(toSessionStatus(stateFromSaleStatus(2))).toBe("error")
    expect(stateFromSaleStatus(7)).toBe("review")
  })

  it("maps notification statuses and storefront words", () => {
    expect(stateFromNotificationStatus("successful")).toBe("paid")
    expect(stateFromNotificationStatus("success")).toBe("paid")
    expect(stateFromNotificationStatus("error")).toBe("failed")
    expect(stateFromNotificationStatus(undefined)).toBe("pending")
    expect(toStorefrontStatus("awaiting_transfer")).toBe("pending")
    expect(toStorefrontStatus("expired")).toBe("failed")
    expect(toSessionStatus("review")).toBe("requires_more")
    expect(toSessionStatus("canceled")).toBe("canceled")
  })
})

describe("checkAmount", () => {
  const base = {
    apiKey: "k",
    apiId: 1,
    baseUrl: "http://x",
    backendUrl: "https://api.shop",
    storefrontUrl: "https://shop",
  }
  const sandbox = parseOdemeOptions(base)
  const live = parseOdemeOptions({ ...base, mode: "live", minimumAmountTry: "100", exchangeRatesTry: { USD: "40.00" } })

  it("formats BigNumber amounts and upper-cases the currency", () => {
    expect(checkAmount({ amount: new BigNumber(250) as never, currency_code: "try" }, ["TRY"], sandbox, "X")).toEqual({
      amount: "250.00",
      currency: "TRY",
    })
  })

  it("refuses other currencies, zero and junk with a MedusaError", () => {
    for (const input of [
      { amount: 10, currency_code: "gbp" },
      { amount: 0, currency_code: "try" },
      { amount: "abc", currency_code: "try" },
    ]) {
      expect(() => checkAmount(input, ["TRY", "USD", "EUR"], sandbox, "Bank transfer")).toThrow(MedusaError)
    }
    expect(() => checkAmount({ amount: 10, currency_code: "gbp" }, ["TRY"], sandbox, "Bank transfer")).toThrow(/supports TRY; this cart is in GBP/)
  })

  it("applies the live TRY minimum, converted for other currencies", () => {
    expect(() => checkAmount({ amount: "99.99", currency_code: "try" }, ["TRY", "USD"], live, "X")).toThrow(/below the minimum of 100.00 TRY/)
    expect(checkAmount({ amount: "100", currency_code: "try" }, ["TRY", "USD"], live, "X").amount).toBe("100.00")
    expect(() => checkAmount({ amount: "2.49", currency_code: "usd" }, ["TRY", "USD"], live, "X")).toThrow(/minimum/)
    expect(checkAmount({ amount: "2.50", currency_code: "usd" }, ["TRY", "USD"], live, "X").amount).toBe("2.50")
    // No minimum in sandbox.
    expect(checkAmount({ amount: "1", currency_code: "try" }, ["TRY"], sandbox, "X").amount).toBe("1.00")
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
