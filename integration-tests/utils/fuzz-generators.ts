/**
 * fast-check generators for fuzzing the plugin's public routes: webhook bodies
 * in every encoding, redirect lures for the return route, nasty path segments.
 */
import fc from "fast-check"

// ---------------------------------------------------------------------------
// Generators
// ---------------------------------------------------------------------------
export const WEBHOOK_KEYS = ["order_id", "uuid", "status", "hash", "message", "type", "amount", "currency", "transaction_id"]
export const hex64 = fc.stringMatching(/^[0-9a-f]{64}$/)
/** ASCII including control characters (NUL, CR, LF …), which PostgreSQL text and jsonb refuse in part. */
export const controlText = fc.string({ unit: "binary-ascii", maxLength: 30 })
export const scalar = fc.oneof(
  fc.string({ maxLength: 40 }),
  controlText,
  fc.string({ unit: "grapheme", maxLength: 30 }),
  fc.integer(),
  fc.double({ noNaN: false }),
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom(
    "",
    " ",
    "0",
    "-1",
    "1e9",
    "NaN",
    "Infinity",
    "250.00",
    "TRY",
    "successful",
    "failed",
    "%00",
    "<script>",
    "'; drop table odeme_payment; --"
  )
)
export const anyValue = fc.oneof(
  { weight: 4, arbitrary: scalar },
  { weight: 1, arbitrary: fc.array(scalar, { maxLength: 4 }) },
  { weight: 1, arbitrary: fc.dictionary(fc.string({ maxLength: 8 }), scalar, { maxKeys: 4 }) },
  { weight: 1, arbitrary: fc.string({ minLength: 200, maxLength: 3000 }) }
)
export const headerName = fc
  .stringMatching(/^[a-z][a-z0-9-]{0,15}$/)
  .filter(
    (n) =>
      ![
        "host",
        "content-length",
        "connection",
        "transfer-encoding",
        "keep-alive",
        "upgrade",
        "expect",
        "te",
        "trailer",
        "content-type",
        "x-publishable-api-key",
      ].includes(n)
  )
export const headerValue = fc.stringMatching(/^[\x21-\x7e][\x20-\x7e]{0,60}$/)
export const extraHeaders = fc.dictionary(headerName, headerValue, { maxKeys: 3 })

/** Encodes a webhook body the ways a client might: JSON, form, raw text, broken JSON. */
export function encodeBody(kind: string, body: unknown): { contentType: string; text: string } {
  switch (kind) {
    case "form": {
      const params = new URLSearchParams()
      if (body && typeof body === "object" && !Array.isArray(body)) {
        for (const [k, v] of Object.entries(body as Record<string, unknown>)) params.append(k, typeof v === "string" ? v : (JSON.stringify(v) ?? ""))
      } else params.append("x", JSON.stringify(body) ?? "")
      return { contentType: "application/x-www-form-urlencoded", text: params.toString() }
    }
    case "text":
      return { contentType: "text/plain", text: JSON.stringify(body) ?? "" }
    case "broken":
      return { contentType: "application/json", text: (JSON.stringify(body) ?? "").slice(0, -1) + "{" }
    case "huge":
      return { contentType: "application/json", text: JSON.stringify({ ...(body as object), pad: "x".repeat(70_000) }) }
    default:
      return { contentType: "application/json", text: JSON.stringify(body) ?? "null" }
  }
}
export const bodyKind = fc.constantFrom("json", "json", "json", "form", "form", "text", "broken", "huge")

/** Redirect-target lures for the return route's query string. */
export const lure = fc.oneof(
  fc.constantFrom(
    "//evil.example",
    "//evil.example/checkout/return",
    "https://evil.example/steal",
    "http://localhost:8000.evil.example/",
    "http://localhost:8000@evil.example/",
    "javascript:alert(document.cookie)",
    "JaVaScRiPt:alert(1)",
    "data:text/html,<script>alert(1)</script>",
    "/\\evil.example",
    "\\\\evil.example",
    "https:evil.example",
    "http://evil.example%2F@localhost:8000",
    "%2F%2Fevil.example",
    "https%3A%2F%2Fevil.example",
    "\u0000https://evil.example",
    " https://evil.example"
  ),
  fc.webUrl().map((u) => u),
  fc.webUrl().map((u) => encodeURIComponent(u)),
  fc.string({ maxLength: 60 }),
  controlText
)
export const RETURN_QUERY_KEYS = [
  "return_url",
  "redirect",
  "next",
  "url",
  "returnTo",
  "continue",
  "status",
  "uuid",
  "hash",
  "order_id",
  "amount",
  "currency",
  "ts",
  "type",
  "message",
  "transaction_id",
  "epin",
]
export const queryPairs = fc.array(
  fc.tuple(
    fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...RETURN_QUERY_KEYS) }, { weight: 1, arbitrary: fc.string({ maxLength: 12 }) }),
    fc.oneof(
      lure,
      fc.constantFrom("success", "successful", "error", "failed", "SUCCESS", "pending", "maybe"),
      fc.uuid(),
      hex64,
      fc.string({ maxLength: 1200 })
    ),
    fc.boolean() // encode the value or send it as is (only safe characters are kept raw)
  ),
  { maxLength: 7 }
)
export function queryString(pairs: Array<[string, string, boolean]>): string {
  if (!pairs.length) return ""
  return (
    "?" +
    pairs
      .map(
        ([k, v, encode]) =>
          `${encodeURIComponent(k)}=${encode ? encodeURIComponent(v) : v.replace(/[^\x21-\x7e]|[#&%]/g, (c) => encodeURIComponent(c))}`
      )
      .join("&")
  )
}
/** A path segment: encoded arbitrary text, or raw nasty ones. */
export const pathSegment = fc.oneof(
  fc.string({ maxLength: 80 }).map(encodeURIComponent),
  controlText.map(encodeURIComponent),
  controlText.map((t) => `payses_${encodeURIComponent(t)}AAAAAAAAAA`),
  fc.stringMatching(/^payses_[A-Za-z0-9]{10,60}$/),
  fc.constantFrom(
    "..",
    "%2e%2e",
    "%2F..%2F",
    "%zz",
    "%",
    "payses_",
    "payses_%00AAAAAAAAAAAA",
    "a%2Fb",
    "%E2%80%AE",
    "%C0%AF",
    "null",
    "undefined",
    "0"
  )
)
