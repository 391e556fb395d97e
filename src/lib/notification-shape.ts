import { hash as digest } from "node:crypto"
import { z } from "@medusajs/framework/zod"
import { serviceCurrency } from "../client/amount"
import { zodMessage } from "../storefront/validation-message"

export { zodMessage }

/**
 * What the service sends is taken as it comes (docs/decisions.md, "intake"):
 * only the four fields the verify endpoint is sent (spec §4.8) must be there,
 * each a scalar. Everything else is read leniently after it is stored, and a
 * field that does not match the session is a reason for review once verify
 * has spoken, never a refusal of the delivery.
 */
const verifyField = (field: string, max: number) =>
  z
    .union([z.string(), z.number()], {
      error: (i) => (i.input === undefined || i.input === null ? `${field} is required` : `${field} must be text or a number`),
    })
    .transform((v) => String(v).trim())
    .pipe(z.string().min(1, `${field} is required`).max(max, `${field} must be at most ${max} characters`))

/** Service statuses, webhook (§6.2) and redirect (§6.1) spellings, normalised to the webhook's. */
export const notificationStatus = z
  .string({ error: (i) => (i.input === undefined ? "status is required" : STATUS_WORDS) })
  .trim()
  .toLowerCase()
  .transform(statusWord)
  .pipe(z.enum(["successful", "failed"], { error: () => STATUS_WORDS }))

const STATUS_WORDS = 'status must be "successful" or "failed"'

/** The webhook's status word for a status as the service spelt it; words it never uses are kept for verify to judge. */
function statusWord(s: string): string {
  const word = s.trim().toLowerCase()
  return word === "success" ? "successful" : word === "error" ? "failed" : word
}

/** A field the spec names but that may be left out: `null` and `""` mean absent; any other value is read as text. */
const optionalText = z.unknown().transform((v) => readText(v))

/** Spec §6.2 as the webhook route reads it: the four verify fields, and the named fields the inbox keeps in columns. */
export const webhookSchema = z.object(
  {
    order_id: verifyField("order_id", 200),
    uuid: verifyField("uuid", 200),
    status: verifyField("status", 50).transform(statusWord),
    hash: verifyField("hash", 1024),
    type: optionalText,
  },
  { error: () => "the notification must be an object of fields" }
)

export type WebhookFields = z.infer<typeof webhookSchema>

/**
 * A named field as text: absent (null) when missing, `null` or blank; a
 * value of any other kind is read as text too (an object as its JSON), so a
 * field that is there but unreadable is never taken for one left out.
 */
export function readText(value: unknown): string | null {
  if (value === undefined || value === null) return null
  const text = typeof value === "string" ? value.trim() : typeof value === "object" ? JSON.stringify(value) : String(value)
  return text === "" ? null : text
}

/** The money a stored notification reports, as the judge reads it: currency in its ISO spelling, absent as null. */
export function reportedMoney(payload: Record<string, unknown>): { amount: string | null; currency: string | null } {
  const currency = readText(payload.currency)
  return { amount: readText(payload.amount), currency: currency === null ? null : serviceCurrency(currency) }
}

/**
 * A body's text as fields: JSON (whatever the content type said, `text/plain`
 * included) or form-encoded. Null when it is neither: junk.
 */
export function decodeWebhookText(text: string): Record<string, unknown> | null {
  const body = text.replace(/^\uFEFF/, "").trim()
  if (body.startsWith("{")) {
    try {
      const parsed: unknown = JSON.parse(body)
      return isFields(parsed) ? parsed : null
    } catch {
      return null
    }
  }
  if (!body.includes("=")) return null
  // Flat, as it came: `customer[name]=…` stays a field of that name (no object is built from a sender's keys).
  const out: Record<string, unknown> = {}
  for (const [k, v] of new URLSearchParams(body)) Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true })
  return out
}

export function isFields(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value)
}

/**
 * PostgreSQL refuses U+0000 in text and jsonb, so such input could never be
 * stored as it came; the route's own parameters (a session id in a query)
 * are refused for it.
 */
export function hasNulCharacter(value: unknown): boolean {
  return findText(value, (s) => s.includes("\u0000"))
}

/** A UTF-16 surrogate without its pair: PostgreSQL's jsonb refuses one anywhere in a value. */
export const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

const UNSTORABLE = new RegExp(`\\u0000|${LONE_SURROGATE.source}`, "g")

/** Text PostgreSQL can store: NUL and lone surrogates become U+FFFD (the raw body keeps what can be kept). */
export function storableText(text: string): string {
  return text.replace(UNSTORABLE, "\uFFFD")
}

/** Whether a verify field holds text that could not be sent to verify as it arrived once stored. */
export function hasUnstorableText(value: unknown): boolean {
  return findText(value, (s) => new RegExp(UNSTORABLE.source).test(s))
}

/**
 * The body as the inbox keeps it: every field as it came, nested ones too,
 * with text made storable, and values nested deeper than MAX_DEPTH kept as
 * their JSON text (a row that could not be written would fail the whole batch
 * of webhooks it is written with).
 */
export function storableFields(body: Record<string, unknown>): Record<string, unknown> {
  return storable(body, 0) as Record<string, unknown>
}

const MAX_DEPTH = 32

function storable(value: unknown, depth: number): unknown {
  if (typeof value === "string") return storableText(value)
  if (value === null || typeof value !== "object") return typeof value === "number" && !Number.isFinite(value) ? String(value) : value
  if (depth >= MAX_DEPTH) return storableText(JSON.stringify(value))
  if (Array.isArray(value)) return value.map((v) => storable(v, depth + 1))
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(value)) {
    Object.defineProperty(out, storableText(k), { value: storable(v, depth + 1), enumerable: true, writable: true, configurable: true })
  }
  return out
}

/** Whether any string in the value (field names included, 32 levels deep) matches. */
function findText(value: unknown, match: (s: string) => boolean, depth = 0): boolean {
  if (typeof value === "string") return match(value)
  if (depth > 32 || !value || typeof value !== "object") return false
  return Object.entries(value).some(([k, v]) => match(k) || findText(v, match, depth + 1))
}

/**
 * The key under which a notification is stored once: a hash of its whole
 * content (every field, sorted, as text; a nested value as its JSON with
 * sorted keys). Identical copies are one row; copies that differ in anything
 * — a junk hash, a changed amount — are rows of their own and are verified
 * on their own, so none can shadow another.
 */
export function contentKey(fields: Record<string, unknown>): string {
  const canonical = Object.keys(fields)
    .filter((k) => fields[k] !== undefined && fields[k] !== null)
    .sort()
    .map((k) => [k, typeof fields[k] === "object" ? sortedJson(fields[k]) : String(fields[k])])
  return `c:${digest("sha256", JSON.stringify(canonical), "hex")}`
}

function sortedJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null"
  if (Array.isArray(value)) return `[${value.map(sortedJson).join(",")}]`
  const record = value as Record<string, unknown>
  return `{${Object.keys(record)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${sortedJson(record[k])}`)
    .join(",")}}`
}
