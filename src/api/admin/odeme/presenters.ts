import { MedusaError } from "@medusajs/framework/utils"
import { z } from "zod"
import { formatIban } from "../../../lib/bank-directory"
import type { OdemeState } from "../../../lib/status"

/**
 * Shapes the plugin's rows for the admin API and the order widget. Nothing
 * here ever touches the API key: only columns of the plugin's own tables are
 * read, and every field is picked by name.
 *
 * The Admin translates everything it shows, so these shapes carry codes
 * (`state`, `flow`, timeline `code`, attention `kind`/`code`), never
 * sentences; technical details (the service's messages, errors) travel in
 * `detail` fields and are shown as they are.
 */

export type TimelineKind = "received" | "verified" | "result" | "duplicate" | "error"

/**
 * What one timeline event says, as a translation key of the Admin
 * (`odeme.timeline.<code>`): received, duplicates, verified, outcome_<outcome>,
 * dead, retry, error, last_check.
 */
export type TimelineCode =
  | "received"
  | "duplicates"
  | "verified"
  | `outcome_${string}`
  | "dead"
  | "retry"
  | "error"
  | "last_check"

export interface TimelineEvent {
  at: string | null
  kind: TimelineKind
  source: string
  code: TimelineCode
  /** Values the translated sentence interpolates (counts, statuses, times). */
  params: Record<string, string | number | boolean | null>
  /** Technical text as it came (a service message, an error): not translated. */
  detail: string | null
}

/** The "needs attention" contract (GET /admin/odeme/attention, and per payment of an order): one definition, in lib. */
export type { AttentionAction, AttentionItem, AttentionKind } from "../../../lib/attention-types"
import type { AttentionItem } from "../../../lib/attention-types"

export interface AttentionCounts {
  review: number
  duplicate_charge: number
  unknown_outcome: number
  dead_notification: number
  total: number
}

export interface AttentionList {
  items: AttentionItem[]
  count: number
  counts: AttentionCounts
}

/** One payment the service reported for a session (a session may see several). */
export interface AdminCharge {
  id: string
  service_uuid: string
  status: string
  role: "primary" | "duplicate" | "late" | "rejected" | "none" | string
  amount: string | null
  currency: string | null
  type: string | null
  verified_at: string | null
  acknowledged_at: string | null
}

export interface AdminOdemePayment {
  session_id: string
  provider_id: string
  provider: string
  /** card | transfer_page | transfer_api, or null for a checkout session before the customer chose. */
  flow: string | null
  sandbox: boolean
  mode: string
  state: OdemeState
  /** Why the payment is in review, as stored (a code, or a technical text from older rows). */
  review_reason: string | null
  medusa_session_status: string | null
  amount: string
  currency: string
  charged_amount: string | null
  charged_currency: string | null
  service_uuid: string | null
  tracking_no: string | null
  payer_name: string | null
  bank_name: string | null
  account_holder: string | null
  iban_display: string | null
  created_at: string | null
  last_checked_at: string | null
  next_check_at: string | null
  check_attempts: number
  /** Technical: the last status check's result as recorded. */
  last_result: string | null
  timeline: TimelineEvent[]
  /** Every service payment of the session (added by the order payment route). */
  charges?: AdminCharge[]
  /** What needs a person for this payment (added by the order payment route). */
  attention?: AttentionItem[]
}

/** Minimal view of an `odeme_payment` row (model columns). */
export interface PaymentLike {
  session_id: string
  provider: string
  flow: string | null
  mode: string
  amount: string
  currency: string
  status: string
  service_uuid: string | null
  tracking_no: string | null
  payer_name: string | null
  bank_name: string | null
  account_holder: string | null
  iban: string | null
  charged_amount: string | null
  charged_currency: string | null
  next_check_at: Date | string | null
  check_attempts: number | null
  last_checked_at: Date | string | null
  last_result: string | null
  review_reason: string | null
  order_id?: string | null
  cart_id?: string | null
  created_at?: Date | string | null
}

/** Minimal view of an `odeme_notification` row. */
export interface NotificationLike {
  id: string
  source: string
  session_id: string | null
  service_uuid: string | null
  status: string | null
  type: string | null
  payload: unknown
  state: string
  attempts: number | null
  next_attempt_at?: Date | string | null
  last_error: string | null
  verify_result: unknown
  outcome: string | null
  duplicate_count: number | null
  processed_at: Date | string | null
  created_at: Date | string | null
  updated_at?: Date | string | null
}

export function iso(v: Date | string | null | undefined): string | null {
  if (v === null || v === undefined || v === "") return null
  const d = v instanceof Date ? v : new Date(v)
  return Number.isNaN(d.getTime()) ? null : d.toISOString()
}

function verifyParams(v: unknown): TimelineEvent["params"] {
  if (!v || typeof v !== "object") return { valid: "unknown", official_status: null }
  const r = v as { is_valid?: unknown; official_status?: unknown; mode?: unknown }
  return {
    valid: r.is_valid === true ? "yes" : r.is_valid === false ? "no" : "unknown",
    official_status: r.official_status === undefined || r.official_status === null ? null : String(r.official_status),
    mode: typeof r.mode === "string" ? r.mode : null,
  }
}

/** A notification's story: received → (duplicates) → verified → result, or errors. */
export function notificationTimeline(n: NotificationLike): TimelineEvent[] {
  const events: TimelineEvent[] = []
  const source = n.source
  const event = (e: Omit<TimelineEvent, "source" | "params" | "detail"> & Partial<Pick<TimelineEvent, "params" | "detail">>) =>
    events.push({ source, params: {}, detail: null, ...e })
  event({ at: iso(n.created_at), kind: "received", code: "received", params: { status: n.status, type: n.type } })
  const dups = Number(n.duplicate_count ?? 0)
  if (dups > 0) {
    event({ at: iso(n.updated_at ?? n.created_at), kind: "duplicate", code: "duplicates", params: { count: dups } })
  }
  const processedAt = iso(n.processed_at) ?? iso(n.updated_at)
  if (n.verify_result) {
    event({ at: processedAt, kind: "verified", code: "verified", params: verifyParams(n.verify_result) })
  }
  if (n.outcome && n.outcome !== "dead") {
    event({ at: processedAt, kind: "result", code: `outcome_${n.outcome}`, params: { outcome: n.outcome } })
  }
  if (n.state === "dead") {
    event({ at: iso(n.updated_at) ?? processedAt, kind: "error", code: "dead", params: { count: Number(n.attempts ?? 0) }, detail: n.last_error })
  } else if (n.last_error) {
    event({
      at: iso(n.updated_at) ?? processedAt,
      kind: "error",
      code: n.state === "retry" ? "retry" : "error",
      params: { count: Number(n.attempts ?? 0), next_at: iso(n.next_attempt_at) },
      detail: n.last_error,
    })
  }
  return events
}

export function paymentTimeline(p: PaymentLike, notifications: NotificationLike[]): TimelineEvent[] {
  const events = notifications.flatMap(notificationTimeline)
  // API transfers are confirmed by status checks (poller or "Check now"), which leave no notification row.
  if (p.last_checked_at && p.last_result) {
    const failed = /fail|error/i.test(p.last_result) && !/verified/i.test(p.last_result)
    events.push({
      at: iso(p.last_checked_at),
      kind: failed ? "error" : "result",
      source: "poll",
      code: "last_check",
      params: { count: Number(p.check_attempts ?? 0) },
      detail: p.last_result,
    })
  }
  return events.sort((a, b) => (a.at ?? "").localeCompare(b.at ?? ""))
}

export function presentPayment(
  p: PaymentLike,
  extra: { provider_id?: string; medusa_session_status?: string | null; notifications?: NotificationLike[] } = {}
): AdminOdemePayment {
  return {
    session_id: p.session_id,
    provider_id: extra.provider_id ?? `pp_${p.provider}_odeme`,
    provider: p.provider,
    flow: p.flow,
    sandbox: p.mode === "sandbox",
    mode: p.mode,
    state: p.status as OdemeState,
    review_reason: p.review_reason ?? null,
    medusa_session_status: extra.medusa_session_status ?? null,
    amount: p.amount,
    currency: p.currency,
    charged_amount: p.charged_amount ?? null,
    charged_currency: p.charged_currency ?? null,
    service_uuid: p.service_uuid ?? null,
    tracking_no: p.tracking_no ?? null,
    payer_name: p.payer_name ?? null,
    bank_name: p.bank_name ?? null,
    account_holder: p.account_holder ?? null,
    iban_display: p.iban ? formatIban(p.iban) : null,
    created_at: iso(p.created_at),
    last_checked_at: iso(p.last_checked_at),
    next_check_at: iso(p.next_check_at),
    check_attempts: Number(p.check_attempts ?? 0),
    last_result: p.last_result ?? null,
    timeline: paymentTimeline(p, extra.notifications ?? []),
  }
}

export function presentNotification(n: NotificationLike & { dedupe_key?: string }) {
  return {
    id: n.id,
    source: n.source,
    session_id: n.session_id,
    service_uuid: n.service_uuid,
    status: n.status,
    type: n.type,
    state: n.state,
    attempts: Number(n.attempts ?? 0),
    next_attempt_at: iso(n.next_attempt_at),
    last_error: n.last_error,
    outcome: n.outcome,
    duplicate_count: Number(n.duplicate_count ?? 0),
    verify_result: n.verify_result ?? null,
    payload: n.payload ?? null,
    processed_at: iso(n.processed_at),
    created_at: iso(n.created_at),
    updated_at: iso(n.updated_at),
  }
}

/** Removes a secret from any text that might echo it (error messages of the service). */
export function redact(text: string, secret: string | undefined): string {
  if (!secret) return text
  return text.split(secret).join("[redacted]")
}

/** Parses with zod; a 400 with every problem in one readable message otherwise. */
export function parseOr400<T extends z.ZodTypeAny>(schema: T, input: unknown, what: string): z.output<T> {
  const result = schema.safeParse(input ?? {})
  if (result.success) return result.data
  const problems = result.error.issues.map((i) => (i.path.length ? `${i.path.join(".")}: ${i.message}` : i.message)).join("; ")
  throw new MedusaError(MedusaError.Types.INVALID_DATA, `Invalid ${what}: ${problems}`)
}

const id = (name: string) =>
  z
    .string({ required_error: `${name} is required` })
    .trim()
    .min(1, `${name} is required`)
    .max(100, `${name} is too long`)
    .regex(/^[A-Za-z0-9_-]+$/, `${name} may only contain letters, digits, "_" and "-"`)

export const orderParams = z.object({ order_id: id("order_id") })
export const sessionParams = z.object({ session_id: id("session_id") })
export const notificationParams = z.object({ id: id("id") })

const int = (name: string, def: number, max: number, min = 0) =>
  z
    .union([z.string(), z.number()])
    .optional()
    .transform((v) => (v === undefined || v === "" ? def : Number(v)))
    .pipe(
      z
        .number({ invalid_type_error: `${name} must be a number` })
        .int(`${name} must be a whole number`)
        .min(min, `${name} must be at least ${min}`)
        .max(max, `${name} must be at most ${max}`)
    )

export const pageQuery = z
  .object({
    limit: int("limit", 20, 100, 1),
    offset: int("offset", 0, 1_000_000),
  })
  .strict()

export const NOTIFICATION_STATES = ["received", "processing", "retry", "done", "dead"] as const

export const notificationsQuery = pageQuery
  .extend({
    state: z
      .enum(NOTIFICATION_STATES, {
        errorMap: () => ({ message: `state must be one of ${NOTIFICATION_STATES.join(", ")}` }),
      })
      .default("dead"),
    session_id: id("session_id").optional(),
  })
  .strict()
