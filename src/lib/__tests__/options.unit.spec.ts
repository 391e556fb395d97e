import { readFileSync } from "node:fs"
import { join } from "node:path"
import { z } from "@medusajs/framework/zod"
import { odemeConfig } from "../../config"
import { checkoutDescription } from "../checkout-form"
import { allowedStorefrontOrigins, OdemeOptionsError, odemeOptionsSchema, parseOdemeOptions, unwrapOption } from "../options"
import {
  assertPluginRegistered,
  differingOptions,
  noteProviderOptions,
  OdemeRegistrationError,
  optionsFingerprint,
  registerPluginOptions,
  resetRegistrations,
} from "../options-registration"

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

  it("checks the poller's cron at boot, naming the option (Medusa's own error would not)", () => {
    for (const cron of ["* * * * *", "*/3 * * * * *", "0 0 1 1 *", "0 */5 * * MON-FRI", "  15 2 * * *  ", "@hourly", "@daily", "0 0 * * 0-6/2"]) {
      expect(parseOdemeOptions({ ...good, transfer: { pollSchedule: cron } }).transfer.pollSchedule).toBe(cron.trim())
    }
    for (const cron of ["every minute", "* * * *", "* * * * * * *", "", "* * * * *; rm", "@often", "@hourly *"]) {
      expect(() => parseOdemeOptions({ ...good, transfer: { pollSchedule: cron } })).toThrow(/transfer\.pollSchedule must be a cron expression/)
    }
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
    expect(() => parseOdemeOptions({ ...good, mode: "live", baseUrl: "http://pay.example" })).toThrow(
      /baseUrl must use https.*backendUrl must use https.*storefrontUrl must use https/
    )
    // The API key may go over this machine's loopback (a TLS sidecar, the emulator), nowhere else in clear.
    expect(() => parseOdemeOptions({ ...good, mode: "live", baseUrl: "http://127.0.0.1:4010" })).toThrow(/^(?!.*baseUrl).*backendUrl must use https/)
    const live = { ...good, mode: "live", baseUrl: "https://pay.example", backendUrl: "https://api.shop", storefrontUrl: "https://shop" }
    expect(() => parseOdemeOptions({ ...live, storefrontOrigins: ["http://x"] })).toThrow(/storefrontOrigins.0 must use https/)
    expect(parseOdemeOptions(live).mode).toBe("live")
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

describe("unknown options", () => {
  const problems = (input: unknown): string[] => {
    try {
      parseOdemeOptions(input)
    } catch (e) {
      return (e as OdemeOptionsError).problems
    }
    throw new Error("should have thrown")
  }

  it("refuses a misspelled top-level key and names the one it resembles", () => {
    expect(problems({ ...good, refund: "reject" })).toEqual(['refund is not an option (did you mean "refunds"?)'])
    expect(problems({ ...good, api_key: "x" })).toEqual(['api_key is not an option (did you mean "apiKey"?)'])
    expect(problems({ ...good, backendURL: "x" })).toEqual(['backendURL is not an option (did you mean "backendUrl"?)'])
  })

  it("refuses unknown keys at every level, with the full path", () => {
    expect(problems({ ...good, transfer: { expiryHour: 2 } })).toEqual([
      'transfer.expiryHour is not an option (did you mean "transfer.expiryHours"?)',
    ])
    expect(problems({ ...good, checkout: { descripton: "x" } })).toEqual([
      'checkout.descripton is not an option (did you mean "checkout.description"?)',
    ])
    expect(problems({ ...good, notifications: { maxAttempt: 3 }, webhook: { max: 1 } })).toEqual(
      expect.arrayContaining([
        'notifications.maxAttempt is not an option (did you mean "notifications.maxAttempts"?)',
        "webhook.max is not an option",
      ])
    )
  })

  it("says nothing about a resemblance when there is none", () => {
    expect(problems({ ...good, colour: "red" })).toEqual(["colour is not an option"])
  })

  it("refuses a rate for a currency that has none", () => {
    expect(problems({ ...good, exchangeRatesTry: { usd: "40" } })[0]).toMatch(
      /^exchangeRatesTry.usd is not a currency with a rate \(use USD, EUR, GBP\)/
    )
  })

  it("accepts the database key Medusa adds to a module's options", () => {
    expect(() => parseOdemeOptions({ ...good, database: { clientUrl: "postgres://x" } })).not.toThrow()
  })
})

describe("payment description", () => {
  it("is Turkish by default and configurable", () => {
    // No internal id for the shopper: the order number when there is one.
    expect(checkoutDescription(parseOdemeOptions(good), "payses_1")).toBe("Sipariş ödemesi")
    expect(checkoutDescription(parseOdemeOptions(good), "payses_1", 1234)).toBe("Sipariş ödemesi #1234")
    const custom = parseOdemeOptions({ ...good, checkout: { description: "Order {reference} at Kahve" } })
    expect(checkoutDescription(custom, "payses_1")).toBe("Order payses_1 at Kahve")
  })

  it("is never empty", () => {
    expect(() => parseOdemeOptions({ ...good, checkout: { description: "   " } })).toThrow(/checkout.description must not be empty/)
  })
})

describe("the options table in docs/configuration.md", () => {
  const leaves = (option: z.ZodType, prefix = ""): string[] => {
    const schema = unwrapOption(option)
    if (!(schema instanceof z.ZodObject)) return [prefix]
    return Object.entries(schema.shape as Record<string, z.ZodType>).flatMap(([k, s]) => leaves(s, prefix ? `${prefix}.${k}` : k))
  }

  it("lists every option", () => {
    const doc = readFileSync(join(__dirname, "../../../docs/configuration.md"), "utf8")
    const documented = new Set([...doc.matchAll(/^\| `([\w.]+)` \|/gm)].map((m) => m[1]))
    const missing = leaves(odemeOptionsSchema).filter((k) => !documented.has(k))
    expect(missing).toEqual([])
  })
})

describe("the plugin and the provider agree", () => {
  beforeEach(() => resetRegistrations())
  afterAll(() => resetRegistrations())

  it("fingerprints parsed options, so key order and spelled-out defaults do not matter", () => {
    const a = optionsFingerprint(parseOdemeOptions(good))
    const b = optionsFingerprint(parseOdemeOptions({ refunds: "manual", ...good, transfer: { expiryHours: 48 } }))
    expect(b.hash).toBe(a.hash)
    const c = optionsFingerprint(parseOdemeOptions({ ...good, transfer: { expiryHours: 24 } }))
    expect(c.hash).not.toBe(a.hash)
    expect(differingOptions(a, c)).toEqual(["transfer.expiryHours"])
  })

  it("passes when both registrations got the same options", () => {
    noteProviderOptions(good)
    const options = registerPluginOptions({ ...good, database: { clientUrl: "postgres://x" } })
    expect(() => assertPluginRegistered(parseOdemeOptions(good))).not.toThrow()
    expect(options.apiId).toBe(1001)
  })

  it("stops the boot when the providers were registered with other options, naming the options but never the key", () => {
    noteProviderOptions({ ...good, apiKey: "sandbox_SECRET_1" })
    expect(() => registerPluginOptions({ ...good, apiKey: "sandbox_SECRET_2", refunds: "reject" })).toThrow(OdemeRegistrationError)
    resetRegistrations()
    noteProviderOptions({ ...good, apiKey: "sandbox_SECRET_1" })
    try {
      registerPluginOptions({ ...good, apiKey: "sandbox_SECRET_2", refunds: "reject" })
    } catch (e) {
      const msg = (e as Error).message
      expect(msg).toContain("different options (apiKey, refunds)")
      expect(msg).toContain("odemeConfig")
      expect(msg).not.toMatch(/SECRET/)
    }
  })

  it("refuses a provider whose plugin is not registered, saying what to add", () => {
    expect(() => assertPluginRegistered(parseOdemeOptions(good))).toThrow(
      /the payment provider is registered but the plugin is not.*plugins: \[\{ resolve: "medusa-payment-odeme", options \}\].*db:migrate/
    )
  })

  it("refuses a provider constructed with options other than the plugin's", () => {
    registerPluginOptions(good)
    expect(() => assertPluginRegistered(parseOdemeOptions({ ...good, mode: "sandbox", httpTimeoutMs: 5000 }))).toThrow(
      /different options \(httpTimeoutMs\)/
    )
  })

  it("keeps the registry on globalThis, shared by every copy of the plugin's code in the process", () => {
    registerPluginOptions(good)
    const key = Symbol.for("medusa-payment-odeme.registrations")
    expect((globalThis as any)[key].plugin.hash).toBe(optionsFingerprint(parseOdemeOptions(good)).hash)
  })
})

describe("odemeConfig", () => {
  it("returns both medusa-config entries around one options object", () => {
    const options = { ...good, mode: "sandbox" }
    const { plugin, paymentProvider } = odemeConfig(options)
    expect(plugin).toEqual({ resolve: "medusa-payment-odeme", options })
    expect(paymentProvider).toEqual({ resolve: "medusa-payment-odeme/providers/odeme", id: "odeme", options })
    expect(plugin.options).toBe(paymentProvider.options)
    expect(odemeConfig(options, { id: "shop2" }).paymentProvider.id).toBe("shop2")
  })

  it("resolves: the entries name paths the package exports", () => {
    const pkg = JSON.parse(readFileSync(join(__dirname, "../../../package.json"), "utf8"))
    expect(pkg.exports["./providers/*"]).toBeDefined()
    expect(pkg.exports["./config"]).toBeDefined()
  })
})
