import { createHmac, timingSafeEqual } from "node:crypto"
import { formatAmount, type AmountInput } from "./amount"

/** The eight fields of spec §5.2, the only ones that are signed. */
export const SIGNED_FIELDS = ["amount", "api_id", "cancel_url", "currency", "description", "order_id", "success_url", "ts"] as const

export type SignedFieldName = (typeof SIGNED_FIELDS)[number]
export type QuickCheckoutSignFields = Partial<Record<Exclude<SignedFieldName, "amount">, string | number> & { amount: AmountInput }>

/** RFC 3986 percent-encoding: encodeURIComponent leaves `! ' ( ) *` alone, RFC 3986 does not. */
export function rfc3986Encode(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => "%" + c.charCodeAt(0).toString(16).toUpperCase())
}

/** Converts the given fields to the strings that are signed and sent. */
export function normalizeSignedFields(fields: QuickCheckoutSignFields & Record<string, unknown>): Partial<Record<SignedFieldName, string>> {
  const out: Partial<Record<SignedFieldName, string>> = {}
  for (const name of SIGNED_FIELDS) {
    const value = fields[name]
    if (value === undefined || value === null) continue
    if (name === "amount") out.amount = formatAmount(value as AmountInput)
    else if (name === "currency") out.currency = String(value).toUpperCase()
    else out[name] = String(value)
  }
  return out
}

/**
 * The string that is signed: the present fields sorted by name, RFC 3986
 * encoded, joined with `&`. A field that is not given is left out entirely
 * (the spec does not say what the service does with an empty description,
 * which is why our builders always send a non-empty one).
 */
export function canonicalQuickCheckoutString(fields: QuickCheckoutSignFields & Record<string, unknown>): string {
  const normalized = normalizeSignedFields(fields)
  return (Object.keys(normalized) as SignedFieldName[])
    .sort()
    .map((name) => `${name}=${rfc3986Encode(normalized[name]!)}`)
    .join("&")
}

/** Lowercase hex HMAC-SHA256 of the canonical string, keyed with the API key. */
export function signQuickCheckout(fields: QuickCheckoutSignFields & Record<string, unknown>, apiKey: string): string {
  if (!apiKey) throw new TypeError("An API key is required to sign a Quick Checkout request")
  return createHmac("sha256", apiKey).update(canonicalQuickCheckoutString(fields), "utf8").digest("hex")
}

/** Constant-time comparison of two strings of any length. */
export function safeEqual(a: string, b: string): boolean {
  const ab = Buffer.from(String(a), "utf8")
  const bb = Buffer.from(String(b), "utf8")
  // Compare equal-length digests so neither the content nor the length leaks through timing.
  const ha = createHmac("sha256", "odeme-compare").update(ab).digest()
  const hb = createHmac("sha256", "odeme-compare").update(bb).digest()
  return timingSafeEqual(ha, hb) && ab.length === bb.length
}

export type SignatureCheck = { ok: true } | { ok: false; reason: "missing_signature" | "bad_signature" | "missing_ts" | "expired" | "future_ts" }

export interface VerifyOptions {
  /** Signature validity in seconds; spec §5.2 default is 30 minutes. */
  maxAgeSeconds?: number
  /** Tolerated clock skew for a `ts` in the future, in seconds. */
  maxFutureSkewSeconds?: number
  /** Current unix time in seconds (for tests). */
  now?: number
}

/**
 * Checks a Quick Checkout signature the way the service does: same canonical
 * string, constant-time compare, and the `ts` validity window.
 */
export function verifyQuickCheckoutSignature(
  fields: QuickCheckoutSignFields & Record<string, unknown>,
  signature: string | undefined | null,
  apiKey: string,
  options: VerifyOptions = {}
): SignatureCheck {
  if (!signature) return { ok: false, reason: "missing_signature" }
  const expected = signQuickCheckout(fields, apiKey)
  if (!safeEqual(expected, String(signature).toLowerCase())) return { ok: false, reason: "bad_signature" }
  const ts = Number(fields.ts)
  if (fields.ts === undefined || fields.ts === "" || !Number.isInteger(ts)) return { ok: false, reason: "missing_ts" }
  const now = options.now ?? Math.floor(Date.now() / 1000)
  const maxAge = options.maxAgeSeconds ?? 30 * 60
  const skew = options.maxFutureSkewSeconds ?? 60
  if (ts > now + skew) return { ok: false, reason: "future_ts" }
  if (now - ts > maxAge) return { ok: false, reason: "expired" }
  return { ok: true }
}
