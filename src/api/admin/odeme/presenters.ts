import { MedusaError } from "@medusajs/framework/utils"
import { z } from "zod"
import { formatIban } from "../../../lib/bank-directory"
import type { OdemeState } from "../../../lib/status"

/**
 * Shapes the plugin's rows for the admin API and the order widget. Nothing
 * here ever touches the API key: only columns of the plugin's own tables are
 * read, and every field is picked by name.
 */

export type TimelineKind = "received" | "verified" | "result" | "duplicate" | "error"

export interface TimelineEvent {
  at: string | null
  kind: TimelineKind
  source: string
  text: string
}

export interface AdminOdemePayment {
  session_id: string
  provider_id: string
  provider: string
  flow: string | null
  flow_label: string
  sandbox: boolean
  mode: string
  state: OdemeState
  status_text: string
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
  review_reason: string | null
  created_at: string | null
  last_checked_at: string | null
  next_check_at: string | null
  check_attempts: number
  last_result: string | null
  timeline: TimelineEvent[]
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

export const FLOW_LABELS: Record<string, string> = {
  card: "Card",
  transfer_page: "Transfer on the checkout page",
  transfer_api: "Bank transfer (API)",
}

export function flowLabel(flow: string | null, provider: string): string {
  if (flow && FLOW_LABELS[flow]) return FLOW_LABELS[flow]
  // A checkout session before the customer chose card or transfer on the service's page.
  if (provider === "odeme-checkout") return "Quick Checkout (card or transfer)"
  if (provider === "odeme-transfer") return FLOW_LABELS.transfer_api
  return "Unknown"
}

export function statusText(state: string, reviewReason?: string | null): string {
  switch (state) {
    case "pending":
      return "Waiting for the customer to pay"
    case "awaiting_transfer":
      return "Waiting for the transfer"
    case "paid":
      return "Paid"
    case "failed":
      return "Failed at the payment service"
    case "canceled":
      return "Canceled"
    case "expired":
      return reviewReason ? `Expired: ${reviewReason}` : "Expired: the transfer did not arrive in time"
    case "review":
      return `Needs review: ${reviewReason || "the payment could not be accepted automatically"}`
    default:
      return `Unknown state "${state}"`
  }
}

export function iso(v: Date | string | null | undefined): string | null {
  if (v === null || v === undefined || v === "") return null
  const d = v instanceof Date ? v : new Date(v)
  return Number.isNaN(d.getTime()) ? null : d.toISOString()
}

const SOURCE_WORDS: Record<string, string> = {
  webhook: "webhook",
  return: "customer's return from the payment page",
  poll: "status check",
  admin: "admin",
}

function describeNotification(n: NotificationLike): string {
  const bits = [n.status ? `status ${n.status}` : null, n.type ? n.type.replace(/_/g, " ") : null].filter(Boolean)
  return `Notification received from the ${SOURCE_WORDS[n.source] ?? n.source}${bits.length ? ` (${bits.join(", ")})` : ""}`
}

function verifyWords(v: unknown): string {
  if (!v || typeof v !== "object") return "Checked with the service's verify endpoint"
  const r = v as { is_valid?: unknown; official_status?: unknown }
  const valid = r.is_valid === true ? "valid" : r.is_valid === false ? "NOT valid" : "validity unknown"
  return `Verified with the service: ${valid}, official status ${String(r.official_status ?? "unknown")}`
}

const OUTCOME_WORDS: Record<string, string> = {
  paid: "Payment confirmed: paid",
  failed: "Payment failed at the service",
  invalid: "Not accepted: the service says the notification is not valid",
  mismatch: "Not accepted: the notification does not match the order (flagged for review)",
  pending: "The service does not report a final status yet",
  unknown_session: "Ignored: the notification names no known payment session",
  dead: "Given up after repeated failures",
}

/** A notification's story: received → (duplicates) → verified → result, or errors. */
export function notificationTimeline(n: NotificationLike): TimelineEvent[] {
  const events: TimelineEvent[] = []
  const source = n.source
  events.push({ at: iso(n.created_at), kind: "received", source, text: describeNotification(n) })
  const dups = Number(n.duplicate_count ?? 0)
  if (dups > 0) {
    events.push({
      at: iso(n.updated_at ?? n.created_at),
      kind: "duplicate",
      source,
      text: `Delivered ${dups} more time${dups === 1 ? "" : "s"}; stored once, duplicates ignored`,
    })
  }
  const processedAt = iso(n.processed_at) ?? iso(n.updated_at)
  if (n.verify_result) {
    events.push({ at: processedAt, kind: "verified", source, text: verifyWords(n.verify_result) })
  }
  if (n.outcome && n.outcome !== "dead") {
    const outcome = OUTCOME_WORDS[n.outcome] ?? `Outcome: ${n.outcome}`
    events.push({ at: processedAt, kind: "result", source, text: outcome })
  }
  if (n.state === "dead") {
    events.push({
      at: iso(n.updated_at) ?? processedAt,
      kind: "error",
      source,
      text: `Given up after ${n.attempts ?? 0} attempt${n.attempts === 1 ? "" : "s"}${n.last_error ? `: ${n.last_error}` : ""}. Retry it from the admin.`,
    })
  } else if (n.last_error) {
    const retry = n.state === "retry" ? ` (attempt ${n.attempts ?? 0}; retried${n.next_attempt_at ? ` at ${iso(n.next_attempt_at)}` : " later"})` : ""
    events.push({ at: iso(n.updated_at) ?? processedAt, kind: "error", source, text: `${n.last_error}${retry}` })
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
      text: `Last status check: ${p.last_result}${p.check_attempts ? ` (${p.check_attempts} check${p.check_attempts === 1 ? "" : "s"} so far)` : ""}`,
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
    flow_label: flowLabel(p.flow, p.provider),
    sandbox: p.mode === "sandbox",
    mode: p.mode,
    state: p.status as OdemeState,
    status_text: statusText(p.status, p.review_reason),
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
    review_reason: p.review_reason ?? null,
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
