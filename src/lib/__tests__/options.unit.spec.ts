import { allowedStorefrontOrigins, OdemeOptionsError, parseOdemeOptions } from "../options"

const good = {
  apiKey: "k",
  apiId: "1001",
  baseUrl: "http://127.0.0.1:4010/",
  backendUrl: "http://localhost:9000",
  storefrontUrl: "http://localhost:8000",
}

describe("plugin options", () => {
  it("applies defaults and normalises", () => {
    const o = parseOdemeOptions(good)
    expect(o.apiId).toBe(1001)
    expect(o.baseUrl).toBe("http://127.0.0.1:4010")
    expect(o.mode).toBe("sandbox")
    expect(o.httpTimeoutMs).toBe(10_000)
    expect(o.transfer.expiryHours).toBe(48)
    expect(o.checkout.currencyVariant).toBe("B")
    expect(o.refunds).toBe("manual")
  })

  it("lists every bad field in one message", () => {
    try {
      parseOdemeOptions({ apiId: "x", baseUrl: "nope", mode: "prod" })
      throw new Error("should have thrown")
    } catch (e) {
      expect(e).toBeInstanceOf(OdemeOptionsError)
      const msg = (e as Error).message
      for (const field of ["apiKey", "apiId", "baseUrl", "mode", "backendUrl", "storefrontUrl"]) expect(msg).toContain(field)
    }
  })

  it("requires HTTPS for the merchant's URLs in live mode", () => {
    expect(() => parseOdemeOptions({ ...good, mode: "live" })).toThrow(/backendUrl must use https.*storefrontUrl must use https/)
    expect(() =>
      parseOdemeOptions({ ...good, mode: "live", backendUrl: "https://api.shop", storefrontUrl: "https://shop", storefrontOrigins: ["http://x"] })
    ).toThrow(/storefrontOrigins.0 must use https/)
    expect(parseOdemeOptions({ ...good, mode: "live", backendUrl: "https://api.shop", storefrontUrl: "https://shop" }).mode).toBe("live")
  })

  it("never puts the key in its error", () => {
    expect(() => parseOdemeOptions({ ...good, apiKey: "sk_live_SECRET", mode: "live" })).toThrow()
    try {
      parseOdemeOptions({ ...good, apiKey: "sk_live_SECRET", mode: "live" })
    } catch (e) {
      expect(String(e)).not.toContain("sk_live_SECRET")
    }
  })

  it("allows redirects only to configured origins", () => {
    const o = parseOdemeOptions({ ...good, storefrontOrigins: ["https://tr.shop.example/path"] })
    expect(allowedStorefrontOrigins(o)).toEqual(["http://localhost:8000", "https://tr.shop.example"])
  })
})
