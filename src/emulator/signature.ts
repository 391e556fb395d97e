import { createHmac, timingSafeEqual } from "node:crypto"

/**
 * The emulator's own reading of the Quick Checkout signature (spec §5.2),
 * written from the spec alone. The plugin signs with its own code; the
 * cross-check test runs both on the same inputs, so a misreading on one side
 * cannot pass every emulator-backed test unnoticed.
 */

/** §5.2 step 1: the signed set. `signature` itself is never part of it (step 5). */
export const SIGNED_FIELDS = ["api_id", "amount", "currency", "description", "order_id", "success_url", "cancel_url", "ts"] as const
export type SignedField = (typeof SIGNED_FIELDS)[number]

/**
 * RFC 3986 percent-encoding (§5.2 step 3): everything but the unreserved
 * characters `A-Z a-z 0-9 - . _ ~` becomes `%XX` of its UTF-8 bytes, so a
 * space is `%20` (never `+`) and `!'()*` are encoded too, which
 * `encodeURIComponent` alone leaves as they are.
 */
export function percentEncode(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
}

/**
 * §5.2 steps 1–3. A field absent from the form is left out of the string (the
 * spec does not say what happens to an omitted `description`; the emulator
 * signs exactly what it received). A field present with an empty value is signed.
 */
export function canonicalQuickCheckoutString(fields: Partial<Record<string, string>>): string {
  const present: Array<[string, string]> = []
  for (const name of SIGNED_FIELDS) {
    const value = fields[name]
    if (value === undefined) continue
    present.push([name, name === "currency" ? String(value).toUpperCase() : String(value)])
  }
  // Step 2: by field name, plain code-unit order (all names are ASCII).
  present.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  return present.map(([name, value]) => `${percentEncode(name)}=${percentEncode(value)}`).join("&")
}

/** §5.2 step 4: HMAC-SHA256 with the API key, lowercase hex. */
export function quickCheckoutSignature(fields: Partial<Record<string, string>>, apiKey: string): string {
  return createHmac("sha256", apiKey).update(canonicalQuickCheckoutString(fields), "utf8").digest("hex")
}

/** Constant-time equality of two strings (different lengths are simply unequal). */
export function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a, "utf8")
  const y = Buffer.from(b, "utf8")
  return x.length === y.length && timingSafeEqual(x, y)
}

export type SignatureRefusal = "missing_signature" | "bad_signature" | "missing_ts" | "expired" | "future_ts"

export interface SignatureWindow {
  /** §5.2 step 6 / §8: 30 minutes by default. */
  maxAgeSeconds: number
  /** Clock skew tolerated for a `ts` ahead of the emulator's clock (the spec names none). */
  maxFutureSkewSeconds: number
  nowSeconds?: number
}

/**
 * Checks a received form. The signature is judged first: until it matches,
 * nothing else in the form (not even `ts`) is known to come from the merchant.
 */
export function checkQuickCheckoutSignature(
  form: Partial<Record<string, string>>,
  apiKey: string,
  window: SignatureWindow
): { ok: true } | { ok: false; reason: SignatureRefusal } {
  const given = (form.signature ?? "").trim()
  if (given === "") return { ok: false, reason: "missing_signature" }
  let expected: string
  try {
    expected = quickCheckoutSignature(form, apiKey)
  } catch {
    // encodeURIComponent refuses a lone surrogate: no merchant could have signed that string.
    return { ok: false, reason: "bad_signature" }
  }
  // Hex is case-insensitive; the reference implementation sends lowercase.
  if (!sameSecret(expected, given.toLowerCase())) return { ok: false, reason: "bad_signature" }
  const ts = form.ts ?? ""
  if (!/^\d{1,12}$/.test(ts)) return { ok: false, reason: "missing_ts" }
  const now = window.nowSeconds ?? Math.floor(Date.now() / 1000)
  const age = now - Number(ts)
  if (age > window.maxAgeSeconds) return { ok: false, reason: "expired" }
  if (-age > window.maxFutureSkewSeconds) return { ok: false, reason: "future_ts" }
  return { ok: true }
}
