import { hash as digest } from "node:crypto"
import { z } from "@medusajs/framework/zod"
import { zodMessage } from "../storefront/validation-message"

export { zodMessage }

/**
 * The webhook is the plugin's hottest input (a burst of them is answered
 * before anything else): zod 4, several times faster than zod 3 was for the
 * same rules; messages are spelled out here.
 */
const text = (field: string, max: number) =>
  z
    .union([z.string(), z.number()], { error: (i) => (i.input === undefined ? `${field} is required` : `${field} must be text or a number`) })
    .transform(String)
    .pipe(z.string().trim().max(max, `${field} must be at most ${max} characters`))

const required = (field: string, max: number) => text(field, max).pipe(z.string().min(1, `${field} is required`))

/** Service statuses, webhook (§6.2) and redirect (§6.1) spellings, normalised to the webhook's. */
export const notificationStatus = z
  .string({ error: (i) => (i.input === undefined ? "status is required" : STATUS_WORDS) })
  .trim()
  .toLowerCase()
  .transform((s) => (s === "success" ? "successful" : s === "error" ? "failed" : s))
  .pipe(z.enum(["successful", "failed"], { error: () => STATUS_WORDS }))

const STATUS_WORDS = 'status must be "successful" or "failed"'
const CURRENCY_CODE = "currency must be a 3-letter code"

/**
 * zod 4's loose object copies an unnamed field with a plain assignment, so a
 * JSON field named `__proto__` would become the parsed body's prototype, and
 * its fields would read as the body's own without being checked. No payment
 * service sends one; it is refused.
 */
const noPrototypeField = z.custom<unknown>(
  (v) => !(v !== null && typeof v === "object" && Object.prototype.hasOwnProperty.call(v, "__proto__")),
  "a field may not be named __proto__"
)

/** Spec §6.2, as the webhook route accepts it (JSON or form-encoded). */
export const webhookSchema = noPrototypeField.pipe(
  z
    .looseObject(
      {
        order_id: required("order_id", 200),
        uuid: required("uuid", 100),
        status: notificationStatus,
        hash: required("hash", 1024),
        message: text("message", 500).optional(),
        type: text("type", 50).optional(),
        amount: text("amount", 40)
          .pipe(z.string().regex(/^\d+(\.\d+)?$/, "amount must be a decimal number"))
          .optional(),
        currency: z
          .string({ error: () => CURRENCY_CODE })
          .trim()
          .regex(/^[A-Za-z]{3}$/, CURRENCY_CODE)
          .optional(),
        transaction_id: text("transaction_id", 100).optional(),
      },
      { error: (i) => (i.code === "invalid_type" ? "the notification must be an object of fields" : undefined) }
    )
    // Fields the spec does not name are kept as they came, but only flat and few:
    // a deeply nested body must be refused (400), never fail in the database.
    .superRefine((body, ctx) => {
      const entries = Object.entries(body)
      if (entries.length > MAX_FIELDS) ctx.addIssue({ code: "custom", message: `at most ${MAX_FIELDS} fields are accepted` })
      for (const [k, v] of entries) {
        if (k.length > 100) ctx.addIssue({ code: "custom", message: "field names are at most 100 characters" })
        else if (v !== null && typeof v === "object") ctx.addIssue({ code: "custom", path: [k], message: "nested values are not accepted" })
        else if (typeof v === "string" && v.length > 2000) ctx.addIssue({ code: "custom", path: [k], message: "is too long" })
      }
    })
)

const MAX_FIELDS = 40

export type WebhookBody = z.infer<typeof webhookSchema>

/**
 * PostgreSQL refuses U+0000 in text and jsonb, so such input could never be
 * stored: it is refused as invalid (400/404) instead of failing in the
 * database (which answered 503/500, and a 503 makes the service redeliver it).
 */
export function hasNulCharacter(value: unknown): boolean {
  return findText(value, (s) => s.includes("\u0000"))
}

/**
 * Text jsonb cannot store, found in one walk of the webhook body: NUL, or a
 * UTF-16 surrogate without its pair (JSON allows `"\ud800"`). Like NUL, such
 * a body is refused as invalid rather than failing the statement it would be
 * written in (which the intake shares among webhooks).
 */
export function unstorableText(value: unknown): "nul" | "lone_surrogate" | null {
  let found: "nul" | "lone_surrogate" | null = null
  findText(value, (s) => {
    const m = UNSTORABLE.exec(s)
    if (m) found = m[0] === "\u0000" ? "nul" : "lone_surrogate"
    return m !== null
  })
  return found
}

/** A UTF-16 surrogate without its pair: PostgreSQL's jsonb refuses one anywhere in a value. */
export const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

const UNSTORABLE = new RegExp(`\\u0000|${LONE_SURROGATE.source}`)

/** Whether any string in the value (field names included, 32 levels deep) matches. */
function findText(value: unknown, match: (s: string) => boolean, depth = 0): boolean {
  if (typeof value === "string") return match(value)
  if (depth > 32 || !value || typeof value !== "object") return false
  return Object.entries(value).some(([k, v]) => match(k) || findText(v, match, depth + 1))
}

/**
 * The key under which a notification is stored once: a hash of its whole
 * content (every field, sorted, as text). Identical copies are one row;
 * copies that differ in anything — a junk hash, a changed amount — are rows
 * of their own and are verified on their own, so none can shadow another.
 */
export function contentKey(fields: Record<string, unknown>): string {
  const canonical = Object.keys(fields)
    .filter((k) => fields[k] !== undefined && fields[k] !== null)
    .sort()
    .map((k) => [k, String(fields[k])])
  return `c:${digest("sha256", JSON.stringify(canonical), "hex")}`
}
