import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, MathBN, Modules } from "@medusajs/framework/utils"
import type { MedusaFacts } from "../../lib/payment-state/transitions"
import { transitionFacts, type SettleFacts } from "../../lib/settle-rules"

/**
 * The read model of Medusa's side: where a payment session stands (its payment, captures, cart, order, the
 * collection's other payments), read through Query. Settling, the order rules, the reconciler and the store
 * routes read Medusa here; what they do with it is decided in src/lib/settle-rules.ts and order-rules.ts.
 */

type Amount = { amount: unknown }
export type MedusaPayment = {
  id: string
  payment_session_id?: string
  captured_at: Date | null
  captures?: Array<Amount & { id: string }> | null
  refunds?: Amount[] | null
}
export type OrderSummary = { raw_pending_difference?: unknown; pending_difference?: unknown } | null
type OrderLink = { id: string; status?: string; summary?: OrderSummary } | null
type MedusaCollection = {
  status: string
  amount: unknown
  cart?: { id: string; order?: OrderLink } | null
  order?: OrderLink
  payments?: MedusaPayment[] | null
}
export const PAYMENT_FIELDS = ["id", "payment_session_id", "captured_at", "captures.id", "captures.amount", "refunds.amount"]
/**
 * The collection with what hangs off it, through Medusa's links: its cart and
 * the cart's order, or (an order's balance: an edit, claim or exchange, no
 * cart) its order directly; and every payment of it, for "paid by others".
 */
const COLLECTION_FIELDS = [
  "status",
  "amount",
  "cart.id",
  "cart.order.id",
  "cart.order.status",
  "order.id",
  "order.status",
  "order.summary",
  ...PAYMENT_FIELDS.map((f) => `payments.${f}`),
]
export const sum = (xs: Amount[] | null | undefined) =>
  (xs ?? []).reduce((acc, x) => MathBN.add(acc, MathBN.convert(x.amount as never)), MathBN.convert(0))
/** What a Medusa payment still holds of the customer's money: captured less refunded. */
export const held = (p: MedusaPayment) => MathBN.sub(sum(p.captures), sum(p.refunds))
/** A link Query may hand back as a one-element list. */
export const one = <T>(x: T | T[] | null | undefined): T | null => (Array.isArray(x) ? (x[0] ?? null) : (x ?? null))

/**
 * Where Medusa stands for a payment session, in one query: payment captured
 * (and its captures)? cart? order, and is it canceled? Did the collection's
 * other payments already pay it? A session Medusa deleted after its payment
 * was captured (a storefront opened another session on the paid cart) is
 * still found through that payment while it holds money: the money is on its
 * order.
 */
export async function medusaState(container: MedusaContainer, sessionId: string) {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data: sessions } = await query.graph({
    entity: "payment_session",
    fields: [
      "id",
      "status",
      "amount",
      "payment_collection_id",
      ...PAYMENT_FIELDS.map((f) => `payment.${f}`),
      ...COLLECTION_FIELDS.map((f) => `payment_collection.${f}`),
    ],
    filters: { id: sessionId },
  })
  type Session = {
    id: string
    status: string
    amount?: unknown
    payment_collection_id: string
    payment_collection?: MedusaCollection | null
    payment?: MedusaPayment | null
  }
  let session = sessions[0] as Session | undefined
  let refundedInMedusa = false
  if (!session) {
    const { data: kept } = await query.graph({
      entity: "payment",
      fields: ["payment_collection_id", ...PAYMENT_FIELDS, ...COLLECTION_FIELDS.map((f) => `payment_collection.${f}`)],
      filters: { payment_session_id: sessionId },
    })
    const payment = kept[0] as (MedusaPayment & { payment_collection_id: string; payment_collection?: MedusaCollection | null }) | undefined
    // Refunded in full (Medusa's compensation of a cart that could not become an order): no money is held there.
    refundedInMedusa = !!payment?.captured_at && MathBN.gt(sum(payment.captures), 0) && !MathBN.gt(held(payment), 0)
    if (payment?.captured_at && MathBN.gt(held(payment), 0)) {
      session = {
        id: sessionId,
        status: "captured",
        payment_collection_id: payment.payment_collection_id,
        payment_collection: payment.payment_collection,
        payment,
      }
    }
  }
  if (!session) {
    return {
      session: null,
      refundedInMedusa,
      captured: false,
      captureIds: [] as string[],
      cartId: null,
      orderId: null,
      orderStatus: null as string | null,
      orderCanceled: false,
      paidByOthers: false,
    }
  }
  const collection = session.payment_collection
  const cart = one(collection?.cart)
  const cartId = cart?.id ?? null
  // A cart's collection reaches its order through the cart; an order's balance is linked to its order directly.
  const order = cartId ? one(cart?.order) : one(collection?.order)
  // Medusa's cancel marks the order and every one of its payment collections canceled, but a session
  // created on such a collection afterwards sets the collection's status anew: the order decides.
  const orderCanceled = order?.status === "canceled" || collection?.status === "canceled"
  const captured = !!session.payment?.captured_at
  const captureIds = (session.payment?.captures ?? []).map((c) => c.id)
  return {
    session,
    refundedInMedusa: false,
    captured,
    captureIds,
    cartId,
    orderId: order?.id ?? null,
    orderStatus: order?.status ?? null,
    orderCanceled,
    paidByOthers: !!collection && (othersHold(collection.payments ?? [], sessionId) || nothingOwed(collection)),
  }
}

/**
 * Whether a session can still be paid, for the store routes that sign a form or start a transfer (they have not
 * read the session with medusaState), in one query: `paidByOthers` as medusaState says it, and whether the session
 * still asks what its collection asks. An order edit, claim or exchange updates an open balance's amount and keeps
 * its sessions, so a session opened before asks for what the balance no longer owes (a cart's sessions are
 * replaced when its total changes).
 */
export async function payability(
  container: MedusaContainer,
  sessionId: string
): Promise<{ paidByOthers: boolean; amountChanged: boolean; cartOrderCanceled: boolean }> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({
    entity: "payment_session",
    fields: [
      "amount",
      "payment_collection.amount",
      "payment_collection.cart.id",
      "payment_collection.cart.order.status",
      "payment_collection.order.summary",
      ...PAYMENT_FIELDS.map((f) => `payment_collection.payments.${f}`),
    ],
    filters: { id: sessionId },
  })
  const session = data[0] as { amount: unknown; payment_collection?: MedusaCollection | null } | undefined
  const collection = session?.payment_collection
  if (!collection) return { paidByOthers: false, amountChanged: false, cartOrderCanceled: false }
  return {
    // A second tab still on a canceled order's checkout (Medusa still opens sessions on its collection).
    cartOrderCanceled: one(one(collection.cart)?.order)?.status === "canceled",
    paidByOthers: othersHold(collection.payments ?? [], sessionId) || nothingOwed(collection),
    amountChanged: !MathBN.eq(MathBN.convert(session.amount as never), MathBN.convert(collection.amount as never)),
  }
}

/**
 * A second tab: another session of the collection was paid and captured first (Medusa deleted this one's
 * sibling, not its capture). True while the collection's other payments still hold money (captured less
 * refunded): a session asks for the collection's whole amount, so paying it too would charge twice, also after
 * a refund in part. Refunded in full (Medusa's compensation of a cart that could not complete) it may be paid again.
 */
function othersHold(payments: MedusaPayment[], sessionId: string): boolean {
  return payments.some((p) => p.payment_session_id !== sessionId && p.captured_at && MathBN.gt(held(p), 0))
}

/**
 * An order's balance (its collection, no cart) whose order owes nothing any more: a later edit, return or claim
 * took off at least what it asked. Medusa updates an open balance's amount only while what is owed is not below
 * zero, so the collection keeps asking its old amount; paid, that money would be all over-payment. Treated as
 * paid by others: not offered, and money paid anyway is listed to give back. (An order that still owes less
 * than a session asks has its collection updated to that: the session's amount then differs, `amountChanged`.)
 * Only before this payment is on the order (its capture lowers what is owed): callers ask it of an unsettled payment.
 */
function nothingOwed(collection: MedusaCollection): boolean {
  if (one(collection.cart)) return false
  const owed = owedBy(one(collection.order)?.summary)
  return owed !== null && !MathBN.gt(owed, 0)
}

/** What an order still owes, as Medusa's own balance workflow reads it (its summary's pending difference). */
export function owedBy(summary: OrderSummary | undefined) {
  const owed = summary?.raw_pending_difference ?? summary?.pending_difference
  return owed == null ? null : MathBN.convert(owed as never)
}

export type MedusaState = Awaited<ReturnType<typeof medusaState>>

/**
 * Captured and on its order: the payment captured, its cart (if any) an
 * order, and every capture in the order's transactions (what the order owes
 * reads them). The payment module captures a provider's "captured" answer by
 * itself, without the order's transaction; only a capture workflow adds it,
 * so a capture alone is not settled.
 */
export async function isSettled(container: MedusaContainer, s: MedusaState): Promise<boolean> {
  if (!s.captured || (s.cartId && !s.orderId)) return false
  if (!s.orderId || !s.captureIds.length) return true
  const transactions = await container
    .resolve(Modules.ORDER)
    .listOrderTransactions({ order_id: s.orderId, reference: "capture", reference_id: s.captureIds }, { select: ["reference_id"] })
  const seen = new Set(transactions.map((t) => t.reference_id))
  return s.captureIds.every((id) => seen.has(id))
}

/** What the transition table reads of Medusa (can the session still take the money?), and the order an item would name. */
export async function medusaFacts(container: MedusaContainer, sessionId: string): Promise<MedusaFacts & { order_id: string | null }> {
  const state = await medusaState(container, sessionId)
  const facts = transitionFacts({
    session_found: !!state.session,
    session_status: state.session?.status ?? null,
    captured: state.captured,
    order_canceled: state.orderCanceled,
    paid_by_others: state.paidByOthers,
    refunded_in_medusa: state.refundedInMedusa,
  })
  return { ...facts, order_id: state.orderId }
}

/** One read for the settle workflow: where Medusa stands, as plain data (a step's output is the workflow's data). */
export interface SettleRead {
  session_found: boolean
  /** Medusa's own amount of the session: the order's transaction is recorded at what the capture is passed. */
  session_amount: number | string | null
  collection_id: string | null
  collection_status: string | null
  payment_id: string | null
  cart_id: string | null
  order_id: string | null
  order_canceled: boolean
  paid_by_others: boolean
  settled: boolean
}

export async function settleRead(container: MedusaContainer, sessionId: string): Promise<SettleRead> {
  const state = await medusaState(container, sessionId)
  const amount = state.session?.amount
  return {
    session_found: !!state.session,
    session_amount:
      amount == null ? null : typeof amount === "number" || typeof amount === "string" ? amount : MathBN.convert(amount as never).toString(),
    collection_id: state.session?.payment_collection_id ?? null,
    collection_status: state.session?.payment_collection?.status ?? null,
    payment_id: state.session?.payment?.id ?? null,
    cart_id: state.cartId,
    order_id: state.orderId,
    order_canceled: state.orderCanceled,
    paid_by_others: state.paidByOthers,
    settled: await isSettled(container, state),
  }
}

/** The settle rules' facts of a read. */
export const settleFacts = (r: SettleRead): SettleFacts => ({
  session_found: r.session_found,
  order_canceled: r.order_canceled,
  settled: r.settled,
  paid_by_others: r.paid_by_others,
  has_payment: !!r.payment_id,
})

/** The session's Medusa payment, found by its session id, which the payment keeps when Medusa deletes the session. */
export async function paymentOfSession(container: MedusaContainer, sessionId: string): Promise<MedusaPayment | undefined> {
  const { data } = await container
    .resolve(ContainerRegistrationKeys.QUERY)
    .graph({ entity: "payment", fields: PAYMENT_FIELDS, filters: { payment_session_id: sessionId } })
  return data[0] as MedusaPayment | undefined
}
