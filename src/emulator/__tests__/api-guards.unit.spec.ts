import { checkLiveMinimum, visible } from "../api-guards"
import type { EmulatorContext } from "../context"
import { buildConfig, EmulatorState } from "../state"

const ctx = (over = {}) =>
  ({ state: new EmulatorState(buildConfig({ minimumAmountTry: "10.00", ...over }, "http://emu.test")) }) as unknown as EmulatorContext

// §8 live minimum (TRY value) and §5.1 rule 3 (sandbox and live records apart), exactly (npm run mutate).
describe("emulator API guards", () => {
  it("lets an amount at the minimum through and refuses one kuruş less, naming both", () => {
    expect(() => checkLiveMinimum(ctx(), "10.00", "TRY")).not.toThrow()
    expect(() => checkLiveMinimum(ctx(), "9.99", "TRY")).toThrow("Amount 9.99 TRY (9.99 TRY) is below the minimum of 10.00 TRY")
    try {
      checkLiveMinimum(ctx(), "9.99", "TRY")
    } catch (e) {
      expect(e).toMatchObject({ status: 400, html: false })
    }
  })

  it("compares the TRY value through the rate", () => {
    expect(() => checkLiveMinimum(ctx({ rates: { USD: "40.00" } }), "0.25", "USD")).not.toThrow()
    expect(() => checkLiveMinimum(ctx({ rates: { USD: "40.00" } }), "0.24", "USD")).toThrow(
      "Amount 0.24 USD (9.60 TRY) is below the minimum of 10.00 TRY"
    )
    expect(() => checkLiveMinimum(ctx(), "100.00", "JPY")).toThrow("No exchange rate configured for JPY")
  })

  it("shows a payment only to a key of its own mode", () => {
    const rc = (mode: string) => ({ access: { mode } }) as never
    const p = { mode: "live" } as never
    expect(visible(rc("live"), p)).toBe(p)
    expect(visible(rc("sandbox"), p)).toBeUndefined()
    expect(visible(rc("live"), undefined)).toBeUndefined()
  })
})
