import { lastCheckOf } from "./last-check"
import { iso, type NotificationLike, type PaymentLike } from "./rows"

export type TimelineKind = "received" | "verified" | "result" | "duplicate" | "error"

/**
 * What one timeline event says, as a translation key of the Admin
 * (`odeme.timeline.<code>`): received, duplicates, verified, outcome_<outcome>,
 * dead, retry, error, last_check.
 */
export type TimelineCode = "received" | "duplicates" | "verified" | `outcome_${string}` | "dead" | "retry" | "error" | "last_check"

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
    const check = lastCheckOf(p.last_result)!
    events.push({
      at: iso(p.last_checked_at),
      kind: check.failed ? "error" : "result",
      source: "poll",
      code: "last_check",
      // `result`: the check's code (lastCheckOf), which the Admin says in words; the raw text stays in `detail`.
      params: { count: Number(p.check_attempts ?? 0), result: check.code, ...check.params },
      detail: p.last_result,
    })
  }
  return events.sort((a, b) => (a.at ?? "").localeCompare(b.at ?? ""))
}
