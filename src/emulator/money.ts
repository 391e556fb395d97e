/**
 * The emulator's own reading of the spec's amounts (§4.2: "decimal, two
 * decimals in the form of the example shape `200.00`"). Written from the
 * spec alone, not shared with the plugin, so that a misreading on either
 * side shows up in the cross-check test instead of passing every test at once.
 *
 * All arithmetic is on bigint digits: a JSON number is first read as the
 * decimal text it is written as, never computed with as a float.
 */

/** An exact decimal: `digits / 10^scale`. */
interface Exact {
  digits: bigint
  scale: number
}

const PLAIN = /^-?\d+(?:\.\d+)?$/
const EXPONENT = /^(-?)(\d+)(?:\.(\d+))?e([+-]?\d+)$/i

/** `1.5e-7` → `0.00000015`; JavaScript prints very large and very small numbers that way. */
function withoutExponent(text: string): string {
  const m = EXPONENT.exec(text)
  if (!m) return text
  const [, sign, whole, fraction = "", exp] = m
  const all = whole + fraction
  const point = whole.length + Number(exp)
  if (point <= 0) return `${sign}0.${"0".repeat(-point)}${all}`
  if (point >= all.length) return `${sign}${all}${"0".repeat(point - all.length)}`
  return `${sign}${all.slice(0, point)}.${all.slice(point)}`
}

/** The plain decimal text of a JSON number or a decimal string; undefined when it is neither. */
export function decimalText(value: unknown): string | undefined {
  if (typeof value === "number") return Number.isFinite(value) ? withoutExponent(String(value)) : undefined
  if (typeof value !== "string") return undefined
  const text = value.trim()
  return PLAIN.test(text) ? text : undefined
}

function exact(value: unknown): Exact {
  const text = decimalText(value)
  if (text === undefined) throw new TypeError(`not a decimal amount: ${String(value)}`)
  const [whole, fraction = ""] = text.split(".")
  return { digits: BigInt(whole + fraction), scale: fraction.length }
}

function rescale(x: Exact, scale: number): bigint {
  return x.digits * 10n ** BigInt(scale - x.scale)
}

/**
 * Rounds to `scale` decimals, half away from zero: the spec names no rounding
 * rule, and this is the one a person applies to a written amount (1.005 → 1.01).
 */
function round(x: Exact, scale: number): bigint {
  if (x.scale <= scale) return rescale(x, scale)
  const divisor = 10n ** BigInt(x.scale - scale)
  const negative = x.digits < 0n
  const abs = negative ? -x.digits : x.digits
  const kept = abs / divisor + ((abs % divisor) * 2n >= divisor ? 1n : 0n)
  return negative ? -kept : kept
}

/** Minor units (hundredths) of an amount, rounded as above. */
export function toMinorUnits(value: unknown): bigint {
  return round(exact(value), 2)
}

/** Two-decimal text of minor units: 24990n → "249.90". */
export function fromMinorUnits(minor: bigint): string {
  const negative = minor < 0n
  const text = (negative ? -minor : minor).toString().padStart(3, "0")
  return `${negative ? "-" : ""}${text.slice(0, -2)}.${text.slice(-2)}`
}

/** An amount in the spec's shape `200.00`. Throws on anything that is not a decimal. */
export function formatAmount(value: unknown): string {
  return fromMinorUnits(toMinorUnits(value))
}

/** Same amount once both are in the two-decimal shape (`"150"`, `150` and `"150.00"` are equal). */
export function amountsEqual(a: unknown, b: unknown): boolean {
  return toMinorUnits(a) === toMinorUnits(b)
}

/** Exact comparison of two decimals: negative, zero or positive like a sort comparator. */
function compare(a: unknown, b: unknown): number {
  const x = exact(a)
  const y = exact(b)
  const scale = Math.max(x.scale, y.scale)
  const d = rescale(x, scale) - rescale(y, scale)
  return d === 0n ? 0 : d < 0n ? -1 : 1
}

/** a >= b for decimals. */
export function gte(a: unknown, b: unknown): boolean {
  return compare(a, b) >= 0
}

export function isPositive(a: unknown): boolean {
  return compare(a, "0") > 0
}

/** TRY value of `amount` in `currency`, two decimals; undefined when no rate is known. */
export function toTry(amount: string, currency: string, rates: Record<string, string>): string | undefined {
  const rate = currency === "TRY" ? (rates.TRY ?? "1") : rates[currency]
  if (rate === undefined) return undefined
  const a = exact(amount)
  const r = exact(rate)
  return fromMinorUnits(round({ digits: a.digits * r.digits, scale: a.scale + r.scale }, 2))
}

/** Accepts a JSON number or a plain unsigned decimal string; returns the two-decimal string or undefined. */
export function parseLooseAmount(v: unknown): string | undefined {
  if (typeof v === "string" && !/^\d+(\.\d+)?$/.test(v.trim())) return undefined
  const text = decimalText(v)
  return text === undefined ? undefined : formatAmount(text)
}
