import { isOdemeProvider } from "../storefront/provider-ids"

/**
 * The order rules' decisions, pure: a canceled order's money, an unpaid transfer's order, an abandoned order,
 * the rest of an edited order. Their I/O lives in src/workflows/order-rules/.
 */

/** A canceled order's money: refunded in Medusa unless the merchant refuses refunds (the provider would refuse it). */
export function refundsInMedusa(f: { holds: boolean; refunds: string }): boolean {
  return f.holds && f.refunds !== "reject"
}

/**
 * What the payment still holds after the refund (refused, or failed) is listed as money to pay back by hand,
 * once per session: only for a payment of this plugin.
 */
export function listsToPayBack(f: { holds_after: boolean; row_found: boolean }): boolean {
  return f.holds_after && f.row_found
}

/** An unpaid API transfer's order. */
export interface UnpaidOrderFacts {
  enabled: boolean
  flow: string | null
  order_id: string | null
  cart_id: string | null
  order_status: string | null
}

export type UnpaidOrderAction = { do: "nothing" } | { do: "cancel" } | { do: "list"; reason: string }

/**
 * An API transfer that failed or expired: its "awaiting" order is canceled when the merchant wants that. Only
 * the order this transfer was placed with waits for it; a balance's transfer leaves its order as it is.
 * Completed or archived by a person while nothing paid it: theirs to decide, from an item.
 */
export function unpaidOrderAction(f: UnpaidOrderFacts): UnpaidOrderAction {
  if (!f.enabled || f.flow !== "transfer_api") return { do: "nothing" }
  if (!f.order_id || !f.cart_id || f.order_status === "canceled") return { do: "nothing" }
  if (f.order_status !== "pending") return { do: "list", reason: `the order is ${f.order_status}` }
  return { do: "cancel" }
}

/**
 * Under the settle lock, on the payment as it is now: a verified success may have reopened the transfer since
 * it was written expired (its money pays the order), and a cancel must not land on the order it just paid.
 */
export function stillUnpaid(statusThen: string, statusNow: string | null | undefined): boolean {
  return statusNow === statusThen
}

/** An order not canceled is listed, unless it was canceled meanwhile (then its item goes). */
export function notCanceledItem(orderStatusNow: string | null | undefined): "forget" | "keep" {
  return orderStatusNow === "canceled" ? "forget" : "keep"
}

/** Whether an abandoned API transfer's order is looked at at all. */
export function abandonedOrderAsked(f: {
  cancel_on_expiry: boolean
  flow: string | null
  status: string
  order_id: string | null
  cart_id: string | null
}): boolean {
  return f.cancel_on_expiry && f.flow === "transfer_api" && f.status === "canceled" && !!f.order_id && !!f.cart_id
}

/** A collection nothing was authorized or captured on. */
const UNPAID_COLLECTION = ["not_paid", "awaiting", "canceled"]
/** Sessions of another provider that will not be paid. */
const ENDED_SESSION: Array<string | null> = ["canceled", "error"]

/** The abandoned transfer's order as read under the cart's lock. */
export interface AbandonedOrderFacts {
  found: boolean
  status: string | null
  /** The order's cart is the transfer's own. */
  own_cart: boolean
  collection_statuses: string[]
  /** The order's sessions other than the transfer's own: their provider and status. */
  other_sessions: Array<{ provider_id: string; status: string | null }>
}

export type AbandonedOrderStep = { do: "done" } | { do: "list"; reason: string } | { do: "ask_others" }

/**
 * Before the plugin's other payments of the order are looked at: canceled already, another cart's, or paid
 * (a collection authorized or captured) → done; completed or archived by a person, or another provider's live
 * session (the plugin cannot tell whether it will be paid) → the merchant decides, from an item.
 */
export function abandonedOrderStep(f: AbandonedOrderFacts): AbandonedOrderStep {
  if (!f.found || f.status === "canceled" || !f.own_cart) return { do: "done" }
  if (f.collection_statuses.some((s) => !UNPAID_COLLECTION.includes(s))) return { do: "done" }
  if (f.status !== "pending") return { do: "list", reason: `the order is ${f.status}` }
  const other = f.other_sessions.find((s) => !isOdemeProvider(s.provider_id) && !ENDED_SESSION.includes(s.status))
  if (other) return { do: "list", reason: `another payment method (${other.provider_id}) was chosen for the order` }
  return { do: "ask_others" }
}

/** Another of the plugin's payments of the order, as its row says. */
export interface OtherPaymentFacts {
  status: string
  resolved: boolean
}

export type OtherPaymentSays = "done" | "wait" | "ask_paying" | "next"

/**
 * What another of the plugin's payments of the order says. Paid, or a person decides about the money (an item
 * lists it): theirs → done. A transfer still awaited, or one whose creation may have happened and nobody
 * resolved → wait. Pending or failed (the service's page lets the customer try again on the same form): ask
 * whether its customer may be paying now. Anything else: the next one.
 */
export function otherPaymentSays(r: OtherPaymentFacts): OtherPaymentSays {
  if (r.status === "paid" || r.status === "review") return "done"
  if (r.status === "awaiting_transfer") return "wait"
  if (r.status === "unknown" && !r.resolved) return "wait"
  if (r.status === "pending" || r.status === "failed") return "ask_paying"
  return "next"
}

/** A collection that still asks for money: the ones Medusa's workflow for an order's balance picks from. */
const OPEN_COLLECTION = ["not_paid", "awaiting", "authorized", "partially_authorized"]

/**
 * Whether the rest of an edited order may need asking for: only a payment on its order, not canceled, whose
 * own collection is partly authorized. Every other payment stops here, before the order's lock (and forgets
 * an item listed before).
 */
export function restMayBeOwed(f: {
  order_id: string | null
  order_canceled: boolean
  collection_id: string | null
  collection_status: string | null
}): boolean {
  return !!f.order_id && !f.order_canceled && !!f.collection_id && f.collection_status === "partially_authorized"
}

/** The order as read under its lock, to ask for the rest. */
export interface RestFacts {
  order_status: string | null
  /** Whether the order still owes money; null when its summary does not say. */
  owes: boolean | null
  collections: Array<{ id: string; status: string }>
  collection_id: string
}

/**
 * Medusa's own workflow for an order's balance picks whichever open collection the order has: run only while
 * that is this session's own, still partly authorized (a re-run, after it closed, does nothing).
 */
export function asksForTheRest(f: RestFacts): boolean {
  if (f.order_status === "canceled" || f.owes !== true) return false
  const open = f.collections.filter((c) => OPEN_COLLECTION.includes(c.status))
  return open.length === 1 && open[0].id === f.collection_id && open[0].status === "partially_authorized"
}
