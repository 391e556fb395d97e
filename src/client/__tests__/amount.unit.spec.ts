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

// Exact outputs of every branch (npm run mutate).
describe("toDecimalString / formatAmount / toMinorUnits, exactly", () => {
  it.each([
    ["+5", "5", "5.00", 500n],
    ["5.", "5", "5.00", 500n],
    [".5", "0.5", "0.50", 50n],
    ["1.5e+2", "150", "150.00", 15000n],
    ["1.25E-1", "0.125", "0.13", 13n],
    ["-0.004", "-0.004", "0.00", 0n],
    ["-0.005", "-0.005", "-0.01", -1n],
    ["-1.5", "-1.5", "-1.50", -150n],
    ["0.000", "0", "0.00", 0n],
    ["123e0", "123", "123.00", 12300n],
    ["-12e-1", "-1.2", "-1.20", -120n],
    ["1e3", "1000", "1000.00", 100000n],
    ["0012e1", "120", "120.00", 12000n],
    [" 12 ", "12", "12.00", 1200n],
    [10n, "10", "10.00", 1000n],
    [-7n, "-7", "-7.00", -700n],
    [{ raw: { value: "12.345" } }, "12.345", "12.35", 1235n],
    [{ raw: { value: 7 } }, "7", "7.00", 700n],
    [{ value: 3 }, "3", "3.00", 300n],
    [{ toString: () => "4.5" }, "4.5", "4.50", 450n],
    [1e-7, "0.0000001", "0.00", 0n],
    [-0, "0", "0.00", 0n],
  ])("%p → %p, %p, %p", (input, dec, formatted, minor) => {
    expect(toDecimalString(input as never)).toBe(dec)
    expect(formatAmount(input as never)).toBe(formatted)
    expect(toMinorUnits(input as never)).toBe(minor)
  })

  it("names what it refuses", () => {
    for (const bad of [".", "e5", "--1", "1e", "+", "1.2e3.4"]) {
      expect(() => toDecimalString(bad)).toThrow(`Amount "${bad}" is not a decimal number`)
    }
    expect(() => toDecimalString("1e1001")).toThrow("Amount exponent is out of range")
    expect(toDecimalString("1e1000")).toHaveLength(1001)
    expect(() => toDecimalString(Infinity)).toThrow("Amount must be a finite number")
    expect(() => toDecimalString({} as never)).toThrow("Amount must be a number, a decimal string or a BigNumber")
    expect(() => toDecimalString({ raw: { value: null } } as never)).toThrow("Amount must be a number, a decimal string or a BigNumber")
    expect(() => toDecimalString(`${"9".repeat(60)}x`)).toThrow(`Amount "${"9".repeat(40)}" is not a decimal number`)
  })

  it("compares after rounding, both ways", () => {
    expect(amountsEqual("1.005", "1.01")).toBe(true)
    expect(amountsEqual("1.004", "1.01")).toBe(false)
    expect(amountsEqual(-1, "-1.00")).toBe(true)
  })
})

// Survivors of `npm run mutate` on amount.ts (2026-11-26), one by one.
describe("toDecimalString's object shapes and exponents, exactly", () => {
  it("refuses null and true with its own message, without reading a property of them", () => {
    expect(() => toDecimalString(null as never)).toThrow("Amount must be a number, a decimal string or a BigNumber")
    expect(() => toDecimalString(true as never)).toThrow("Amount must be a number, a decimal string or a BigNumber")
  })

  it("reads bigNumber only when it has a toFixed function, and raw.value only when it is text or a number", () => {
    expect(toDecimalString({ bigNumber: {}, value: 3 } as never)).toBe("3")
    expect(toDecimalString({ bigNumber: { toFixed: "9" }, value: 3 } as never)).toBe("3")
    expect(toDecimalString({ raw: { value: null }, value: 3 } as never)).toBe("3")
    expect(toDecimalString({ raw: { value: { value: 5 } }, value: 3 } as never)).toBe("3")
  })

  it("moves only as many fraction digits as the exponent says", () => {
    expect(toDecimalString("1.25e1")).toBe("12.5")
    expect(toDecimalString("-0.0125e+2")).toBe("-1.25")
  })

  it("bounds negative exponents as well as positive ones", () => {
    expect(() => toDecimalString("1e-1001")).toThrow("Amount exponent is out of range")
    expect(toDecimalString("1e-1000")).toBe(`0.${"0".repeat(999)}1`)
  })
})
