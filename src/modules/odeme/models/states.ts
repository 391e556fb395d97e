/**
 * The words the plugin's tables use, written once. A payment's `status` is
 * changed only by the transition function (src/lib/payment-state); the other
 * columns record what happened on the way.
 */

/** Where a payment session stands, as far as this store knows. */
export const PAYMENT_STATES = [
  "pending", // nothing confirmed yet: the customer is on the way
  "awaiting_transfer", // an API transfer exists; the money has not arrived (sale_status 0)
  "unknown", // "create transfer" had no readable answer: it may exist at the service
  "paid", // a verified, matching success: captured once, order completed
  "failed", // the service said failed (verified)
  "canceled", // canceled here (Medusa canceled or deleted the session)
  "expired", // an API transfer that was not paid within transfer.expiryHours
  "review", // the service and this store disagree: a person decides
] as const
export type PaymentState = (typeof PAYMENT_STATES)[number]

/** Why a payment is in `review`. (A payment `unknown` needs a look for one reason, its status: "create transfer" had no readable answer.) */
export const REVIEW_CODES = [
  "amount_mismatch", // a verified success for another amount or currency
  "late_success", // a verified success on a failed, canceled or expired payment
  "session_gone", // a verified success for a session Medusa no longer has
  "already_paid", // a verified success for a cart or balance another payment had already paid (a second tab)
  "contradiction", // the service reported failed for a payment it had confirmed
  "verify_refused_mode", // a success from the sandbox for a live store: its API key is a sandbox key
] as const
export type ReviewCode = (typeof REVIEW_CODES)[number]

/** Where a transfer's creation stands (at most one per session). */
export const CREATION_STATES = ["none", "creating", "created", "failed", "unknown"] as const
export type CreationState = (typeof CREATION_STATES)[number]

/** How a payment is being paid: known once the customer chose (or the service reported) it; null before. */
export const PAYMENT_FLOWS = [
  "card", // a card on the Quick Checkout page
  "transfer_page", // a bank transfer chosen on the Quick Checkout page
  "transfer_api", // a bank transfer created through the API (the transfer provider)
] as const
export type PaymentFlow = (typeof PAYMENT_FLOWS)[number]

/** Which of the merchant's keys a payment was made with. */
export const KEY_MODES = ["sandbox", "live"] as const
export type KeyMode = (typeof KEY_MODES)[number]

/** What the service says of one of its payments (uuid) for a session. */
export const CHARGE_STATUSES = ["successful", "failed", "pending"] as const
export type ChargeStatus = (typeof CHARGE_STATUSES)[number]

/** What that service payment is to the store. */
export const CHARGE_ROLES = [
  "primary", // the payment that paid the session
  "duplicate", // a second verified success on a paid session: refund it
  "late", // a verified success that came when the session could no longer be paid
  "rejected", // verified, but its amount or currency does not match
  "none", // failed or still pending: no money to account for
] as const
export type ChargeRole = (typeof CHARGE_ROLES)[number]

/** Where a stored notification is in its processing. */
export const NOTIFICATION_STATES = ["received", "processing", "retry", "done", "dead"] as const
export type NotificationState = (typeof NOTIFICATION_STATES)[number]

/**
 * What a notification's processing turned out to be (`odeme_notification.outcome`): the transition's outcome
 * (src/lib/payment-state/transitions.ts) or why there was none.
 */
export const NOTIFICATION_OUTCOMES = [
  // the transition's
  "created",
  "unknown",
  "pending",
  "paid",
  "failed",
  "expired",
  "canceled",
  "rejected", // not about this payment, or its money does not match: changes nothing it could not
  "review",
  "duplicate_charge",
  "late_success",
  "unchanged",
  // the processing's own
  "unverifiable", // its fields could not be sent to verify as they arrived
  "unknown_session", // no payment of this store has its reference
  "verify_failed", // verify (or the transfer's record) could not be read: retried
  "error", // recording it in Medusa failed: retried
  "dead", // retried until the limit
  "navigation_only", // a return carrying nothing verify could be asked about
] as const
export type NotificationOutcome = (typeof NOTIFICATION_OUTCOMES)[number]

/** Outcomes earlier versions wrote and nothing writes now; rows that hold them stay readable. */
export const LEGACY_NOTIFICATION_OUTCOMES = ["mismatch", "invalid", "deferred"] as const

export const NOTIFICATION_SOURCES = ["webhook", "return", "poll", "admin"] as const
export type NotificationSource = (typeof NOTIFICATION_SOURCES)[number]

/**
 * What Medusa refused the plugin, kept as keys of a payment's `metadata` until Medusa's side is done (each an
 * attention code: the order of an unpaid transfer not canceled, the rest of an edited order not asked for).
 */
export const MEDUSA_REFUSALS = ["order_not_canceled", "rest_not_asked"] as const
export type MedusaRefusal = (typeof MEDUSA_REFUSALS)[number]

/** The store's health signals (odeme_health): each a count and a time. */
export const HEALTH_SIGNALS = [
  "stray_notifications", // notifications for references this store never made
  "poller_pass", // the poller's last pass
] as const
export type HealthSignal = (typeof HEALTH_SIGNALS)[number]
