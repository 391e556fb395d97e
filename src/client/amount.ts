/**
 * Decimal amount handling without floating point.
 *
 * Medusa v2 amounts are major units and may arrive as a number, a decimal
 * string, a Medusa `BigNumber`, or a raw `{ value, precision }` object. The
 * service wants a string with exactly two decimals ("200.00"). Everything is
 * done on digit strings so `0.1 + 0.2` style errors never reach a signature.
 */

export type AmountInput =
  | number
  | string
  | bigint
  | { raw?: { value?: unknown }; toJSON?: () => unknown; toString(): string }
  | { value: string | number; precision?: number }

const DECIMAL_RE = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/

/** Normalises any accepted amount shape into a plain decimal string. */
export function toDecimalString(input: AmountInput): string {
  if (typeof input === "number") {
    if (!Number.isFinite(input)) throw new TypeError("Amount must be a finite number")
    return expandExponent(String(input))
  }
  if (typeof input === "bigint") return input.toString()
  if (typeof input === "string") return expandExponent(input.trim())
  if (input && typeof input === "object") {
    // Medusa BigNumber: its bignumber.js instance is exact (`raw.value` is cut to 20 digits);
    // raw objects are `{ value, precision }`.
    const big = (input as { bigNumber?: { toFixed?: () => string } }).bigNumber
    if (big && typeof big.toFixed === "function") return toDecimalString(big.toFixed())
    const raw = (input as { raw?: { value?: unknown } }).raw
    if (raw && (typeof raw.value === "string" || typeof raw.value === "number")) {
      return toDecimalString(raw.value as string | number)
    }
    const value = (input as { value?: unknown }).value
    if (typeof value === "string" || typeof value === "number") return toDecimalString(value)
    const str = String(input)
    if (str && str !== "[object Object]") return toDecimalString(str)
  }
  throw new TypeError("Amount must be a number, a decimal string or a BigNumber")
}

function expandExponent(text: string): string {
  const m = DECIMAL_RE.exec(text)
  if (!m || (m[2] === "" && (m[3] === undefined || m[3] === ""))) {
    throw new TypeError(`Amount "${text.slice(0, 40)}" is not a decimal number`)
  }
  const sign = m[1] === "-" ? "-" : ""
  let intPart = m[2] || "0"
  let fracPart = m[3] ?? ""
  const exp = m[4] ? parseInt(m[4], 10) : 0
  if (Math.abs(exp) > 1000) throw new TypeError("Amount exponent is out of range")
  if (exp > 0) {
    fracPart = fracPart.padEnd(exp, "0")
    intPart = intPart + fracPart.slice(0, exp)
    fracPart = fracPart.slice(exp)
  } else if (exp < 0) {
    intPart = intPart.padStart(-exp + 1, "0")
    fracPart = intPart.slice(intPart.length + exp) + fracPart
    intPart = intPart.slice(0, intPart.length + exp)
  }
  intPart = intPart.replace(/^0+(?=\d)/, "")
  fracPart = fracPart.replace(/0+$/, "")
  const isZero = /^0*$/.test(intPart) && /^0*$/.test(fracPart)
  return (isZero ? "" : sign) + intPart + (fracPart ? "." + fracPart : "")
}

/**
 * Formats an amount with exactly two decimals, rounding half away from zero
 * (the usual commercial rounding). Negative amounts are kept signed; callers
 * that need a positive amount check that separately.
 */
export function formatAmount(input: AmountInput): string {
  const dec = toDecimalString(input)
  const negative = dec.startsWith("-")
  const [intRaw, fracRaw = ""] = (negative ? dec.slice(1) : dec).split(".")
  let cents = BigInt(intRaw + (fracRaw + "00").slice(0, 2))
  if ((fracRaw[2] ?? "0") >= "5") cents += 1n
  const str = cents.toString().padStart(3, "0")
  const out = `${str.slice(0, -2)}.${str.slice(-2)}`
  return negative && cents !== 0n ? `-${out}` : out
}

/** Amount in minor units (cents/kuruş) as a bigint, for exact comparisons. */
export function toMinorUnits(input: AmountInput): bigint {
  const formatted = formatAmount(input)
  const negative = formatted.startsWith("-")
  const cents = BigInt(formatted.replace("-", "").replace(".", ""))
  return negative ? -cents : cents
}

/** True when both amounts are equal once rounded to two decimals. */
export function amountsEqual(a: AmountInput, b: AmountInput): boolean {
  return toMinorUnits(a) === toMinorUnits(b)
}

/**
 * A currency code as the service reports it, in its ISO 4217 spelling. The
 * lira is written "TL" by many Turkish services (and TRY by the spec): both
 * are TRY wherever the service tells a currency (docs/decisions.md, lira spellings).
 */
export function serviceCurrency(code: string): string {
  const upper = code.trim().toUpperCase()
  return upper === "TL" ? "TRY" : upper
}
