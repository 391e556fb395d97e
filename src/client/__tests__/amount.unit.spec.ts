import { BigNumber } from "@medusajs/framework/utils"
import { amountsEqual, formatAmount, toDecimalString, toMinorUnits } from "../amount"

describe("formatAmount", () => {
  it.each([
    [200, "200.00"],
    ["200", "200.00"],
    ["200.5", "200.50"],
    [0.1 + 0.2, "0.30"],
    [1.005, "1.01"],
    ["1.005", "1.01"],
    ["1.004999", "1.00"],
    [19.999, "20.00"],
    ["0", "0.00"],
    [1e21, "1000000000000000000000.00"],
    ["1.5e2", "150.00"],
    ["12e-3", "0.01"],
    [-3.456, "-3.46"],
    ["00012.30", "12.30"],
  ])("formats %p as %p", (input, expected) => {
    expect(formatAmount(input as never)).toBe(expected)
  })

  it("reads Medusa BigNumber values and raw objects exactly", () => {
    expect(formatAmount(new BigNumber(545.5) as never)).toBe("545.50")
    expect(formatAmount(new BigNumber("1234567890123456789.129") as never)).toBe("1234567890123456789.13")
    expect(formatAmount({ value: "545", precision: 20 })).toBe("545.00")
  })

  it("rejects what is not a number", () => {
    for (const bad of ["", "abc", "1,50", "1.2.3", NaN, Infinity, {}, null]) {
      expect(() => formatAmount(bad as never)).toThrow(TypeError)
    }
  })

  it("converts to minor units and compares after rounding", () => {
    expect(toMinorUnits("200.00")).toBe(20000n)
    expect(toMinorUnits(new BigNumber(0.1) as never)).toBe(10n)
    expect(amountsEqual(200, "200.00")).toBe(true)
    expect(amountsEqual(200, "200.01")).toBe(false)
    expect(toDecimalString("-0.000")).toBe("0")
  })
})
