import { createHash } from "node:crypto"
import { z } from "zod"

const text = (max: number) => z.union([z.string(), z.number()]).transform(String).pipe(z.string().trim().max(max))

/** Service statuses, webhook (§6.2) and redirect (§6.1) spellings, normalised to the webhook's. */
export const notificationStatus = z
  .string({ required_error: "status is required" })
  .trim()
  .toLowerCase()
  .transform((s) => (s === "success" ? "successful" : s === "error" ? "failed" : s))
  .pipe(z.enum(["successful", "failed"], { errorMap: () => ({ message: 'status must be "successful" or "failed"' }) }))

/** Spec §6.2, as the webhook route accepts it (JSON or form-encoded). */
export const webhookSchema = z
  .object({
    order_id: text(200).pipe(z.string().min(1, "order_id is required")),
    uuid: text(100).pipe(z.string().min(1, "uuid is required")),
    status: notificationStatus,
    hash: text(1024).pipe(z.string().min(1, "hash is required")),
    message: text(500).optional(),
    type: text(50).optional(),
    amount: text(40)
      .pipe(z.string().regex(/^\d+(\.\d+)?$/, "amount must be a decimal number"))
      .optional(),
    currency: z.string().trim().regex(/^[A-Za-z]{3}$/, "currency must be a 3-letter code").optional(),
    transaction_id: text(100).optional(),
  })
  .passthrough()
  // Fields the spec does not name are kept as they came, but only flat and few:
  // a deeply nested body must be refused (400), never fail in the database.
  .superRefine((body, ctx) => {
    const entries = Object.entries(body)
    if (entries.length > MAX_FIELDS) ctx.addIssue({ code: z.ZodIssueCode.custom, message: `at most ${MAX_FIELDS} fields are accepted` })
    for (const [k, v] of entries) {
      if (k.length > 100) ctx.addIssue({ code: z.ZodIssueCode.custom, message: "field names are at most 100 characters" })
      else if (v !== null && typeof v === "object") ctx.addIssue({ code: z.ZodIssueCode.custom, path: [k], message: "nested values are not accepted" })
      else if (typeof v === "string" && v.length > 2000) ctx.addIssue({ code: z.ZodIssueCode.custom, path: [k], message: "is too long" })
    }
  })

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

const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

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
  return `c:${createHash("sha256").update(JSON.stringify(canonical)).digest("hex")}`
}

export function zodMessage(error: z.ZodError): string {
  return error.issues.map((i) => (i.path.length ? `${i.path.join(".")}: ${i.message}` : i.message)).join("; ")
}
