/**
 * Settling's decisions, pure: from what the settle workflow read of Medusa
 * (src/workflows/settle/read-model.ts) to what it does next. The workflow
 * (src/workflows/settle/settle-payment.ts) reads, asks these, and acts.
 */
import type { ServiceAnswer } from "./payment-state/transitions"

/** What one read of Medusa says about a paid payment's session. */
export interface SettleFacts {
  /** Medusa still has the session (or its captured payment, which keeps the money's session id). */
  session_found: boolean
  /** The order (or the collection) is canceled. */
  order_canceled: boolean
  /** Captured, its cart an order, every capture in the order's transactions. */
  settled: boolean
  /** Another payment of the collection holds money, or the balance's order owes nothing. */
  paid_by_others: boolean
  /** A Medusa payment exists for the session (captured by the payment module, or kept by a deleted session). */
  has_payment: boolean
}

export type SettleAction =
  /** Gone between the decision and the lock: the next attempt sees it and sends the payment to review. */
  | "session_gone"
  /** Canceled while the money was on its way or after it was captured: what it holds is given back. */
  | "order_canceled"
  /** Captured and on its order: nothing to capture. */
  | "settled"
  /** A second tab paid the same cart or balance first: putting this one on the order too would charge it twice. */
  | "already_paid"
  /** A payment is there: Medusa's capture workflow puts it on the order, under the cart's lock. */
  | "capture_existing"
  /** No payment yet: Medusa authorizes and captures the session and completes its cart. */
  | "process_payment"

/**
 * The first decision, on the read taken under the session's settle lock. A canceled order comes before
 * "settled": a capture on a canceled order is not settled, its money goes back.
 */
export function settleAction(f: SettleFacts): SettleAction {
  if (!f.session_found) return "session_gone"
  if (f.order_canceled) return "order_canceled"
  if (f.settled) return "settled"
  if (f.paid_by_others) return "already_paid"
  return f.has_payment ? "capture_existing" : "process_payment"
}

/** Under the cart's lock, read again before capturing an existing payment. */
export type CaptureRecheck = "settled" | "already_paid" | "capture"

/**
 * The storefront's completion (or a second tab's payment) may have landed while the cart's lock was awaited:
 * settled meanwhile → nothing to capture; the cart completed by another payment → already paid.
 */
export function captureRecheck(f: Pick<SettleFacts, "settled" | "paid_by_others">): CaptureRecheck {
  if (f.settled) return "settled"
  if (f.paid_by_others) return "already_paid"
  return "capture"
}

/**
 * Whether Medusa was asked to capture (or found it captured under the cart's lock), so Medusa is read again
 * after it: not when nothing was to capture, nor when another payment had paid the cart meanwhile.
 */
export function readsAfterCapture(action: SettleAction, recheck: CaptureRecheck | undefined): boolean {
  return action === "process_payment" || (action === "capture_existing" && recheck !== "already_paid")
}

/** After Medusa captured: where the order stands. */
export interface AfterCaptureFacts {
  order_canceled: boolean
  cart_id: string | null
  order_id: string | null
}

export type AfterCapture = "order_canceled" | "complete_cart" | "check"

/**
 * Medusa's cancel does not take the settle lock: an order canceled while the capture ran is followed here.
 * A cart with no order yet is completed (the completion inside Medusa's payment workflow may lose a race with
 * the storefront's); otherwise what was read is checked for "settled".
 */
export function afterCapture(f: AfterCaptureFacts): AfterCapture {
  if (f.order_canceled) return "order_canceled"
  if (f.cart_id && !f.order_id) return "complete_cart"
  return "check"
}

/** What the settle workflow ends with: an outcome, or a reason to try again later. */
export type SettleEnd = "session_gone" | "order_canceled" | "settled" | "already_paid" | "not_yet"

/**
 * The end of one settle from its decisions in order: the first one, the re-check under the cart's lock (only
 * for an existing payment), what was found after the capture, and whether the last read is settled. A step
 * that did not run is undefined.
 */
export function settleEnd(d: { action: SettleAction; recheck?: CaptureRecheck; after?: AfterCapture; settled_at_last?: boolean }): SettleEnd {
  if (d.action !== "capture_existing" && d.action !== "process_payment") return d.action
  if (d.action === "capture_existing" && d.recheck === "already_paid") return "already_paid"
  if (d.after === "order_canceled") return "order_canceled"
  return d.settled_at_last ? "settled" : "not_yet"
}

/** What a settle found that the transition table decides on: Medusa's own findings, in its answer's words. */
export type SettleFinding = Extract<ServiceAnswer, { kind: "order_canceled" } | { kind: "already_paid" }>

/**
 * What a settle that ended tells the transition table: nothing when settled; the cart paid by another payment;
 * or the order canceled, with whether this payment's money had been captured (and so was listed to give back).
 */
export function settleFinding(end: "settled" | "already_paid" | "order_canceled", captured: boolean, uuid: string | null): SettleFinding | null {
  if (end === "settled") return null
  if (end === "already_paid") return { kind: "already_paid", uuid }
  return { kind: "order_canceled", uuid, captured }
}

/**
 * Every payment of the cart names its cart, and its order once there is one: an item about a payment whose
 * cart was paid again then shows the order that payment made. At the start only when the cart differs from
 * what the row names; once settled, always (the order may be new).
 */
export function linksCart(rowCartId: string | null | undefined, cartId: string | null): boolean {
  return !!cartId && rowCartId !== cartId
}

/** Where Medusa stands, as the transition table reads it. */
export interface MedusaStand {
  session_found: boolean
  session_status: string | null
  captured: boolean
  order_canceled: boolean
  paid_by_others: boolean
  refunded_in_medusa: boolean
}

/**
 * The facts `decide()` reads. A session Medusa deleted (cart changed, another session chosen) or canceled can
 * no longer be paid. Paid elsewhere only when this payment holds no money itself: which of two captures is the
 * order's, settle decides.
 */
export function transitionFacts(s: MedusaStand): {
  session_alive: boolean
  order_canceled: boolean
  paid_elsewhere: boolean
  refunded_in_medusa: boolean
  captured: boolean
} {
  const alive = s.session_found && s.session_status !== "canceled"
  return {
    session_alive: alive,
    order_canceled: s.order_canceled,
    paid_elsewhere: alive && !s.captured && !s.order_canceled && s.paid_by_others,
    refunded_in_medusa: s.refunded_in_medusa,
    captured: s.captured,
  }
}
