import type { ChargeRole, NotificationOutcome, PaymentState, ReviewCode } from "../../modules/odeme/models/states"

/**
 * What the service (or Medusa, or the clock) says about a payment, after it
 * was checked: a notification's verify answer judged against the session, a
 * transfer record of the authenticated uuid endpoint, the outcome of
 * "create transfer", a cancel, an expiry. Redirects and webhooks never reach
 * here unverified.
 */
export type ServiceAnswer =
  | { kind: "created"; uuid: string }
  | { kind: "creation_unknown"; detail: string }
  | { kind: "pending"; uuid?: string | null }
  | { kind: "paid"; uuid: string; amount: string; currency: string; type?: string | null }
  | { kind: "mismatch"; uuid: string; amount: string | null; currency: string | null; reason: string; type?: string | null }
  | { kind: "failed"; uuid?: string | null; type?: string | null }
  | { kind: "invalid"; reason: string }
  | { kind: "expired"; detail?: string }
  | { kind: "canceled" }
  /**
   * Medusa canceled the order this session paid for (an admin, or the plugin's
   * cancel of an expired transfer). `captured`: Medusa had captured the
   * session's payment, so its cancel recorded a refund to make by hand.
   */
  | { kind: "order_canceled"; uuid?: string | null; captured: boolean }
  /**
   * What this session would pay (its cart's order, or a balance) was paid by
   * another payment of its collection before this one was captured: found by
   * settle under its lock (a second tab paid the same cart).
   */
  | { kind: "already_paid"; uuid?: string | null }
  /**
   * A success reported to a live store whose API key is a sandbox key (or
   * whose verify answered in sandbox mode): no money moved, and the store's
   * key is wrong. Never paid; the merchant is told to fix the key.
   */
  | { kind: "sandbox_paid"; uuid: string; type?: string | null }

export type AnswerKind = ServiceAnswer["kind"]

/** What the table needs to know of the payment. */
export interface PaymentFacts {
  status: PaymentState
  review_code: ReviewCode | null
  /** The uuid of the service payment that is this session's (the one that paid, or the created transfer). */
  primary_uuid: string | null
}

/** Medusa's side of the payment: does its session still exist and accept money? */
export interface MedusaFacts {
  session_alive: boolean
  /** The order (or order balance) this session would pay was canceled: money must never be captured onto it. */
  order_canceled?: boolean
  /** Another payment of the session's collection was captured and still holds money (a second tab paid first). */
  paid_elsewhere?: boolean
  /**
   * The session is gone and Medusa had captured its payment and refunded all of it (its compensation of a cart
   * that could not become an order): that refund is already listed as money to pay back, once.
   */
  refunded_in_medusa?: boolean
  /** Medusa captured the session's payment: on a canceled order, settle gives back what it still holds (listed once). */
  captured?: boolean
}

export type MedusaAction =
  | "none"
  | "settle" // capture the session's payment and complete its cart, once
  | "cancel_order" // an API transfer that failed or expired: cancel its awaiting order (option)

/** What a notification's processing is recorded as (`odeme_notification.outcome`), when a transition decided it. */
export type Outcome = Exclude<NotificationOutcome, "unverifiable" | "unknown_session" | "verify_failed" | "error" | "dead" | "navigation_only">

export interface Decision {
  to: PaymentState
  review_code: ReviewCode | null
  action: MedusaAction
  /** The role recorded for the answer's uuid in `odeme_charge`; "keep": record the status, keep the role; null: record nothing. */
  charge: ChargeRole | "keep" | null
  /** The answer's uuid becomes the payment's own. */
  adopt_uuid: boolean
  outcome: Outcome
  /** Said in the log as a warning (money that needs a person). */
  warn: boolean
}

const OPEN: ReadonlySet<PaymentState> = new Set(["pending", "awaiting_transfer", "unknown"])

/**
 * THE transition table: state × verified answer → new state, Medusa action,
 * charge record. Pure; every cell is unit-tested and written out in
 * docs/design.md. `src/workflows/payment-state/apply-service-answer.ts` is its only caller and the only
 * code that writes a payment's state.
 */
export function decide(p: PaymentFacts, a: ServiceAnswer, medusa: MedusaFacts): Decision {
  const keep = (outcome: Outcome, charge: Decision["charge"] = null, warn = false): Decision => ({
    to: p.status,
    review_code: p.review_code,
    action: "none",
    charge,
    adopt_uuid: false,
    outcome,
    warn,
  })
  const move = (to: PaymentState, outcome: Outcome, extra: Partial<Decision> = {}): Decision => ({
    to,
    review_code: null,
    action: "none",
    charge: null,
    adopt_uuid: false,
    outcome,
    warn: false,
    ...extra,
  })
  const review = (code: ReviewCode, charge: Decision["charge"]): Decision =>
    move("review", code === "late_success" || code === "session_gone" || code === "already_paid" ? "late_success" : "review", {
      review_code: code,
      charge,
      warn: true,
    })

  // A review caused only by a wrong amount or a sandbox confirmation is still waiting for the genuine notification.
  const open = OPEN.has(p.status) || (p.status === "review" && (p.review_code === "amount_mismatch" || p.review_code === "verify_refused_mode"))
  const uuid = "uuid" in a ? (a.uuid ?? null) : null
  const ours = !!uuid && uuid === p.primary_uuid
  const other = !!uuid && !!p.primary_uuid && uuid !== p.primary_uuid
  // Money on a session Medusa lost is given back once: by its own refund's item when Medusa refunded this very
  // payment (another service payment of the session is not what Medusa refunded).
  const gone: Decision["charge"] = medusa.refunded_in_medusa && !other ? "none" : "late"

  switch (a.kind) {
    case "invalid":
      return keep("rejected")
    case "created":
      return p.status === "pending" ? move("awaiting_transfer", "created", { charge: "none", adopt_uuid: true }) : keep("unchanged")
    case "creation_unknown":
      return p.status === "pending" ? move("unknown", "unknown", { warn: true }) : keep("unchanged")
    case "pending":
      // A notification can tell the uuid of a transfer whose creation had no answer: the poller then asks about it.
      if (p.status === "unknown" && !p.primary_uuid && uuid) return { ...keep("pending", "none"), adopt_uuid: true }
      // The transfer's record exists and waits, but the move to awaiting was not written (a failure right after creation).
      if (p.status === "pending" && ours) return move("awaiting_transfer", "created", { charge: "keep" })
      return keep("pending", uuid ? "keep" : null)
    case "expired":
      return p.status === "awaiting_transfer" ? move("expired", "expired", { action: "cancel_order" }) : keep("unchanged")
    case "canceled":
      return p.status === "pending" || p.status === "awaiting_transfer" ? move("canceled", "canceled") : keep("unchanged")
    case "order_canceled":
      // Nothing can be paid onto a canceled order: money that arrives later is a late success, never a capture.
      if (OPEN.has(p.status)) return move("canceled", "canceled")
      // Confirmed here but never captured in Medusa: the customer's money has no order. Captured: Medusa's
      // cancel refunded it, which the plugin lists as a refund to make in the merchant panel.
      if (p.status === "paid" && !a.captured) return review("late_success", "late")
      return keep("unchanged")
    case "already_paid":
      // Confirmed here, never captured: what it paid for had been paid; the money is to give back.
      return p.status === "paid" ? review("already_paid", "late") : keep("unchanged")
    case "failed":
      if (open && p.status !== "review") {
        // Another of the session's payments failed; the one that is ours still stands.
        if (other) return keep("failed", "none")
        return move("failed", "failed", { action: "cancel_order", charge: uuid ? "none" : null, adopt_uuid: !!uuid && !p.primary_uuid })
      }
      if (p.status === "paid" && (ours || !uuid)) return review("contradiction", "keep")
      return keep("failed", uuid ? (ours ? "keep" : "none") : null)
    case "paid":
      if (open) {
        if (!medusa.session_alive) return review("session_gone", gone)
        if (medusa.order_canceled) return review("late_success", "late")
        if (medusa.paid_elsewhere) return review("already_paid", "late")
        return move("paid", "paid", { action: "settle", charge: "primary", adopt_uuid: true })
      }
      if (p.status === "paid") {
        // The same payment again: make sure Medusa is settled (an earlier attempt may have stopped half-way),
        // unless Medusa lost the session or canceled the order meanwhile: then the money has no order,
        // and its charge is listed as money to give back.
        if (ours) {
          if (!medusa.session_alive) return review("session_gone", gone)
          // Captured before the cancel: what it still holds is given back and listed once (settle, under its lock,
          // finds the cancel: Medusa's refund, or a refund to make when it refused or failed); never a late item too.
          if (medusa.order_canceled) return medusa.captured ? { ...keep("unchanged"), action: "settle" } : review("late_success", "late")
          if (medusa.paid_elsewhere) return review("already_paid", "late")
          return { ...keep("paid", "keep"), action: "settle" }
        }
        return keep("duplicate_charge", "duplicate", true)
      }
      if (p.status === "review") {
        // Its own payment again (a second copy, "Ask Odeme now"): the item it is in already lists the money. But a
        // payment the service said failed after confirming it, never captured: confirmed again, its money has no order.
        const listed = p.review_code !== "contradiction" || !!medusa.captured
        return ours && listed ? keep("unchanged") : keep("late_success", "late", true)
      }
      // A failed attempt closes only its own service payment: the customer may pay the same form again
      // (another uuid), and whichever arrives first, that success pays the session.
      if (p.status === "failed" && other && medusa.session_alive && !medusa.order_canceled && !medusa.paid_elsewhere) {
        return move("paid", "paid", { action: "settle", charge: "primary", adopt_uuid: true })
      }
      // An expired transfer whose order still waits (`transfer.cancelOrderOnExpiry` off, or its cancel failed): the
      // money pays that order. Only when Medusa was read and said the order is not canceled.
      if (p.status === "expired" && medusa.order_canceled === false && medusa.session_alive && !medusa.paid_elsewhere) {
        return move("paid", "paid", { action: "settle", charge: "primary", adopt_uuid: true })
      }
      return review(p.status === "failed" && medusa.paid_elsewhere ? "already_paid" : "late_success", "late")
    case "sandbox_paid":
      // Nothing to give back (no money moved); the item stands until a person fixes the key and resolves it.
      if (open && p.status !== "review") return review("verify_refused_mode", "none")
      return keep("rejected")
    case "mismatch":
      if (open) return move("review", "rejected", { review_code: "amount_mismatch", charge: "rejected", warn: true })
      // An edited copy of the payment that paid (the service charges the signed amount): refused. No money
      // is at stake and nobody has anything to do, so it is not a warning (a warning always leaves an item).
      if (p.status === "paid") return ours ? keep("rejected") : keep("duplicate_charge", "duplicate", true)
      if (p.status === "review") return ours ? keep("rejected") : keep("late_success", "late", true)
      return review("late_success", "late")
  }
}
