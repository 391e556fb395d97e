import { amountsEqual, decimalText, formatAmount, fromMinorUnits, gte, isPositive, parseLooseAmount, toMinorUnits, toTry } from "../money"

// The emulator's own amounts (§4.2 "200.00"), each branch with its exact result (npm run mutate).
describe("emulator money", () => {
  it.each([
    [1.5e-7, "0.00000015", 0n, "0.00"],
    [1e21, "1000000000000000000000", 100000000000000000000000n, "1000000000000000000000.00"],
    [1.5e21, "1500000000000000000000", 150000000000000000000000n, "1500000000000000000000.00"],
    [123.456, "123.456", 12346n, "123.46"],
    [-2.5e-3, "-0.0025", 0n, "0.00"],
    ["  12.5 ", "12.5", 1250n, "12.50"],
    ["-0.005", "-0.005", -1n, "-0.01"],
    ["0.005", "0.005", 1n, "0.01"],
    ["-1.005", "-1.005", -101n, "-1.01"],
    [2, "2", 200n, "2.00"],
    [1.005, "1.005", 101n, "1.01"],
    ["1.0049", "1.0049", 100n, "1.00"],
  ])("%p reads as %p: %p minor units, %p", (input, text, minor, formatted) => {
    expect(decimalText(input)).toBe(text)
    expect(toMinorUnits(input)).toBe(minor)
    expect(formatAmount(input)).toBe(formatted)
  })

  it("refuses what is not a decimal", () => {
    for (const bad of ["1e3", "abc", NaN, null, "12.", Infinity]) {
      expect(decimalText(bad)).toBeUndefined()
      expect(() => toMinorUnits(bad)).toThrow(`not a decimal amount: ${String(bad)}`)
    }
  })

  it("writes minor units with two decimals and a sign", () => {
    expect(fromMinorUnits(-5n)).toBe("-0.05")
    expect(fromMinorUnits(0n)).toBe("0.00")
    expect(fromMinorUnits(24990n)).toBe("249.90")
    expect(fromMinorUnits(-123456n)).toBe("-1234.56")
  })

  it("compares exactly", () => {
    expect(amountsEqual("150", 150)).toBe(true)
    expect(amountsEqual("150.004", "150.00")).toBe(true)
    expect(amountsEqual("150.005", "150.00")).toBe(false)
    expect([gte("1.00", "1"), gte("1.001", "1"), gte("0.999", "1"), gte("-1", "0"), gte("10", "9.99")]).toEqual([true, true, false, false, true])
    expect([isPositive("0.00"), isPositive("0.01"), isPositive("-0.01"), isPositive("0.001")]).toEqual([false, true, false, true])
  })

  it("converts to TRY with the rate, TRY at 1 unless told", () => {
    expect(toTry("10.00", "USD", { USD: "40.00" })).toBe("400.00")
    expect(toTry("10.00", "TRY", {})).toBe("10.00")
    expect(toTry("10.00", "TRY", { TRY: "2" })).toBe("20.00")
    expect(toTry("1.23", "EUR", { EUR: "45.555" })).toBe("56.03")
    expect(toTry("1", "GBP", {})).toBeUndefined()
    expect(toTry("-1.11", "USD", { USD: "1.5" })).toBe("-1.67")
  })

  it("parses a loose amount: a JSON number or an unsigned decimal string", () => {
    expect(parseLooseAmount("12")).toBe("12.00")
    expect(parseLooseAmount(" 12.5 ")).toBe("12.50")
    expect(parseLooseAmount(12.345)).toBe("12.35")
    expect(parseLooseAmount(1e21)).toBe("1000000000000000000000.00")
    for (const bad of ["-1", "1e3", "abc", null, "12."]) expect(parseLooseAmount(bad)).toBeUndefined()
  })
})
