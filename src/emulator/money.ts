import { formatAmount, toDecimalString } from "../client/amount"

const SCALE = 8

/** Decimal string → bigint scaled by 10^8 (exact, no floats). */
function scaled(value: string): bigint {
  const dec = toDecimalString(value)
  const negative = dec.startsWith("-")
  const [i, f = ""] = (negative ? dec.slice(1) : dec).split(".")
  const v = BigInt(i + (f + "0".repeat(SCALE)).slice(0, SCALE))
  return negative ? -v : v
}

function unscale(v: bigint): string {
  const negative = v < 0n
  const s = (negative ? -v : v).toString().padStart(SCALE + 1, "0")
  return `${negative ? "-" : ""}${s.slice(0, -SCALE)}.${s.slice(-SCALE)}`
}

/** TRY value of `amount` in `currency`, two decimals; undefined when no rate is known. */
export function toTry(amount: string, currency: string, rates: Record<string, string>): string | undefined {
  const rate = currency === "TRY" ? rates.TRY ?? "1" : rates[currency]
  if (rate === undefined) return undefined
  const product = (scaled(amount) * scaled(rate)) / 10n ** BigInt(SCALE)
  return formatAmount(unscale(product))
}

/** a >= b for decimal strings. */
export function gte(a: string, b: string): boolean {
  return scaled(a) >= scaled(b)
}

export function isPositive(a: string): boolean {
  return scaled(a) > 0n
}

/** Accepts a JSON number or a plain decimal string; returns two-decimal string or undefined. */
export function parseLooseAmount(v: unknown): string | undefined {
  if (typeof v === "number" && Number.isFinite(v)) return formatAmount(v)
  if (typeof v === "string" && /^\d+(\.\d+)?$/.test(v.trim())) return formatAmount(v.trim())
  return undefined
}
