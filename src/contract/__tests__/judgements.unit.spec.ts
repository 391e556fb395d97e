import { isSandboxMode, looksLikeLiveKeyMessage } from "../context"
import { CONTRACT_CANCEL_URL, judgeCheckoutAnswer } from "../scenarios"

describe("live-key and checkout judgements", () => {
  it("recognises live-key texts and sandbox modes", () => {
    expect(looksLikeLiveKeyMessage('Invalid parameter "sandbox_result": only available with a sandbox API key')).toBe(true)
    expect(looksLikeLiveKeyMessage("sandbox_result is sandbox-only")).toBe(true)
    expect(looksLikeLiveKeyMessage("Bu alan sadece sandbox anahtarı ile kullanılabilir")).toBe(true)
    expect(looksLikeLiveKeyMessage("Bank transfer 123 not found")).toBe(false)
    expect(looksLikeLiveKeyMessage(undefined)).toBe(false)
    expect(isSandboxMode("sandbox")).toBe(true)
    expect(isSandboxMode("api_cc_pos")).toBe(false)
    expect(isSandboxMode("quick_checkout_fallback")).toBe(false)
  })

  const base = "https://pay.example"
  const answer = (status: number, location?: string, text = "") => ({ status, location, contentType: "text/html", text })

  it("accepts a redirect to the checkout page or a page without an error", () => {
    expect(judgeCheckoutAnswer(answer(303, "/checkout/session/0b6c3f43-3ad4-4a36-9a51-4c1d3c62f7a1"), base, CONTRACT_CANCEL_URL)).toEqual({
      accepted: true,
      how: "HTTP 303 redirect to /checkout/session/{uuid}",
    })
    expect(judgeCheckoutAnswer(answer(200, undefined, "<title>Ödeme</title><form>"), base, CONTRACT_CANCEL_URL).accepted).toBe(true)
  })

  it("does not accept an error page, a redirect to cancel_url with status=error, or a 4xx", () => {
    expect(judgeCheckoutAnswer(answer(200, undefined, "<title>Hata</title>"), base, CONTRACT_CANCEL_URL).accepted).toBe(false)
    expect(judgeCheckoutAnswer(answer(200, undefined, "<p>Geçersiz imza</p>"), base, CONTRACT_CANCEL_URL).accepted).toBe(false)
    expect(judgeCheckoutAnswer(answer(302, `${CONTRACT_CANCEL_URL}?status=error&message=x`), base, CONTRACT_CANCEL_URL).accepted).toBe(false)
    expect(judgeCheckoutAnswer(answer(302, "/checkout/error"), base, CONTRACT_CANCEL_URL).accepted).toBe(false)
    expect(judgeCheckoutAnswer(answer(302), base, CONTRACT_CANCEL_URL).accepted).toBe(false)
    expect(judgeCheckoutAnswer(answer(401, undefined, "<p>Invalid signature</p>"), base, CONTRACT_CANCEL_URL)).toEqual({
      accepted: false,
      how: "HTTP 401: Invalid signature",
    })
  })
})
