import { randomUUID } from "node:crypto"
import type { BigNumberValue, Logger, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, MathBN, MedusaError, Modules, PaymentActions } from "@medusajs/framework/utils"
import {
  cancelOrderWorkflow,
  capturePaymentWorkflow,
  completeCartWorkflow,
  createOrUpdateOrderPaymentCollectionWorkflow,
  processPaymentWorkflow,
  refundPaymentsWorkflow,
} from "@medusajs/medusa/core-flows"
import { formatAmount } from "../../client/amount"
import type { OdemePaymentRow } from "../../modules/odeme/service"
import { odemeError } from "../medusa-errors"
import { odemeModule } from "../../modules/odeme/resolve"
import { ODEME_SESSION_FIELDS, odemeSessionsOf, type CollectionSessions } from "../order-sessions"
import { isOdemeProvider } from "../../storefront/provider-ids"
import type { MedusaFacts } from "./transitions"
import { errorText } from "../error-text"

type Amount = { amount: unknown }
type MedusaPayment = {
  id: string
  payment_session_id?: string
  captured_at: Date | null
  captures?: Array<Amount & { id: string }> | null
  refunds?: Amount[] | null
}
type OrderSummary = { raw_pending_difference?: unknown; pending_difference?: unknown } | null
type OrderLink = { id: string; status?: string; summary?: OrderSummary } | null
type MedusaCollection = {
  status: string
  amount: unknown
  cart?: { id: string; order?: OrderLink } | null
  order?: OrderLink
  payments?: MedusaPayment[] | null
}
const PAYMENT_FIELDS = ["id", "payment_session_id", "captured_at", "captures.id", "captures.amount", "refunds.amount"]
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
const sum = (xs: Amount[] | null | undefined) => (xs ?? []).reduce((acc, x) => MathBN.add(acc, MathBN.convert(x.amount as never)), MathBN.convert(0))
/** What a Medusa payment still holds of the customer's money: captured less refunded. */
const held = (p: MedusaPayment) => MathBN.sub(sum(p.captures), sum(p.refunds))
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
function owedBy(summary: OrderSummary | undefined) {
  const owed = summary?.raw_pending_difference ?? summary?.pending_difference
  return owed == null ? null : MathBN.convert(owed as never)
}

type MedusaState = Awaited<ReturnType<typeof medusaState>>

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
  const { session, captured, orderCanceled, orderId } = state
  // A session Medusa deleted (cart changed, another session chosen) or canceled can no longer be paid.
  const alive = !!session && session.status !== "canceled"
  // Not when this payment holds money itself: which of two captures is the order's, settle decides (isSettled).
  const paidElsewhere = alive && !captured && !orderCanceled && state.paidByOthers
  return {
    session_alive: alive,
    order_canceled: orderCanceled,
    paid_elsewhere: paidElsewhere,
    refunded_in_medusa: state.refundedInMedusa,
    captured,
    order_id: orderId,
  }
}

/**
 * Captures the session's payment onto its order (completing its cart first
 * when it has one), exactly once. The per-session lock (Medusa's locking
 * module: use a Redis or PostgreSQL locking provider when several servers
 * run) serialises every caller that captures (the balance start route holds
 * it around Medusa's authorize too). Medusa's cart lock
 * serialises them with the storefront's `cart.complete`. Already captured and
 * on the order → nothing to do. Throws (with Medusa's reason) while it is not
 * there yet, so the caller retries.
 */
export async function settlePaid(container: MedusaContainer, payment: OdemePaymentRow): Promise<SettleOutcome> {
  return withSettleLock(container, payment.session_id, () => settleLocked(container, payment))
}

export type SettleOutcome = "settled" | "order_canceled" | "captured_then_canceled" | "already_paid"

/**
 * Runs `job` holding the session's settle lock (see settlePaid): taken by
 * whatever captures, and by whatever must not overlap a capture (Medusa's
 * authorize of a balance transfer, an order's cancel).
 */
export function withSettleLock<T>(container: MedusaContainer, sessionId: string, job: () => Promise<T>): Promise<T> {
  return container.resolve(Modules.LOCKING).execute(`odeme:session:${sessionId}`, job, { timeout: 30 })
}

/** settlePaid's work, under the session's settle lock. */
async function settleLocked(container: MedusaContainer, payment: OdemePaymentRow): Promise<SettleOutcome> {
  const settled = (s: MedusaState) => isSettled(container, s)
  let state = await medusaState(container, payment.session_id)
  // Gone between the decision and the lock: the next attempt sees it and sends the payment to review.
  if (!state.session) throw new Error(`session ${payment.session_id} no longer exists in Medusa`)
  const odeme = odemeModule(container)
  // Every payment of the cart names its cart, and its order once there is one: an item about a
  // payment whose cart was paid again (a second payment) then shows the order that payment made.
  const link = () => odeme.linkCart(payment.session_id, state.cartId, state.orderId)
  if (state.cartId && payment.cart_id !== state.cartId) await link()
  // Canceled while the money was on its way, or after it was captured: what it holds is given back (once), never
  // left on the canceled order. Before "settled": a capture on a canceled order is not settled.
  const canceled = async () => {
    await forgetRestNotAsked(container, payment)
    return (await giveBackCapture(container, payment.session_id)) ? "captured_then_canceled" : "order_canceled"
  }
  if (state.orderCanceled) return canceled()
  if (await settled(state)) {
    await link()
    await askForTheRest(container, state, payment)
    return "settled"
  }
  // A second tab paid the same cart (or balance) first: putting this one on the order too would charge it twice
  // (also when the payment module captured this one by itself: that capture is not the order's).
  if (state.paidByOthers) return "already_paid"
  const existing = state.session.payment
  if (existing) {
    // A payment is there (captured by the payment module by itself, or kept by a session Medusa deleted): its
    // capture workflow puts it on the order; the cart is completed below. Not processPaymentWorkflow: it finds the
    // cart through the session, and with the session deleted (Medusa does that without this lock, also while this
    // runs) its lookup matches any cart and completes it. Under the cart's lock, as that workflow would: the
    // storefront's cart completion adds the same capture to the order under it, and two adds could both land.
    const found = await underCartLock(container, state.cartId, async () => {
      const now = await medusaState(container, payment.session_id)
      if (await settled(now)) return null
      // The cart was completed by a second tab's payment while this waited for the lock.
      if (now.paidByOthers) return "already_paid" as const
      await capturePaymentWorkflow(container).run({ input: { payment_id: existing.id } })
      return null
    })
    if (found) return found
  } else {
    // No payment yet: Medusa authorizes and captures the session and completes its cart (authorizing a session
    // deleted meanwhile fails before any cart is completed).
    // Medusa's own amount of the session, not the plugin's two-decimal one sent to the service: the order's
    // transaction is recorded at what is passed here, and must equal what the payment module captures.
    const amount = (state.session?.amount ?? payment.amount) as BigNumberValue
    await processPaymentWorkflow(container).run({
      input: { action: PaymentActions.SUCCESSFUL, data: { session_id: payment.session_id, amount } },
    })
  }
  state = await medusaState(container, payment.session_id)
  // Medusa's cancel does not take this lock: an order canceled while this capture ran is followed here,
  // not only by the order.canceled subscriber (whose event a crash could lose).
  if (state.orderCanceled) return canceled()
  let completion: string | null = null
  if (state.cartId && !state.orderId) {
    // Cart completion inside processPaymentWorkflow may lose a race with the storefront; try ourselves.
    try {
      await completeCartWorkflow(container).run({ input: { id: state.cartId } })
    } catch (err) {
      completion = errorText(err)
    }
    state = await medusaState(container, payment.session_id)
  }
  if (!(await settled(state))) {
    throw new Error(
      `session ${payment.session_id} is not captured and ordered yet` + (completion ? `: completing cart ${state.cartId} failed: ${completion}` : "")
    )
  }
  await link()
  await askForTheRest(container, state, payment)
  return "settled"
}

/**
 * A balance paid with a form signed before a later edit raised it, or an API transfer's awaiting order edited
 * while the money was on its way (Medusa raises the open collection's amount and keeps the session at its old
 * one, which is what the customer was asked to send), leaves its collection partly paid, which Medusa's Admin
 * offers no payment link for, and a customer who opens the old link again is refused as already paid: the rest
 * could not be asked for. Medusa's own workflow for
 * an order's balance closes a partly authorized collection as partly captured and opens a new one for what is
 * still owed. It picks whichever open collection the order has: run only while that is this session's own,
 * still partly authorized (a re-run, after it closed, does nothing), under the order's lock. Also run when
 * settle finds the payment settled, to catch up a run that failed (a failure is logged: the payment itself is
 * settled, and the order shows what it still owes).
 */
async function askForTheRest(container: MedusaContainer, state: MedusaState, payment: OdemePaymentRow): Promise<void> {
  const sessionId = payment.session_id
  const collectionId = state.session?.payment_collection_id
  // Partly paid or nothing to do: every other payment (a whole checkout, a whole balance) stops here, before the lock.
  if (!state.orderId || state.orderCanceled || !collectionId || state.session?.payment_collection?.status !== "partially_authorized") {
    // Listed before, now settled otherwise (the order canceled, the rest asked for by hand): the item goes.
    return forgetRestNotAsked(container, payment)
  }
  const orderId = state.orderId
  await container
    .resolve(Modules.LOCKING)
    .execute(
      `odeme:order:${orderId}`,
      async () => {
        const { data } = await container.resolve(ContainerRegistrationKeys.QUERY).graph({
          entity: "order",
          fields: ["status", "summary", "payment_collections.id", "payment_collections.status"],
          filters: { id: orderId },
        })
        const order = data[0] as
          | {
              status?: string
              summary?: OrderSummary
              payment_collections?: Array<{ id: string; status: string }>
            }
          | undefined
        const owed = owedBy(order?.summary)
        if (order?.status === "canceled" || owed === null || !MathBN.gt(owed, 0)) return
        const open = (order?.payment_collections ?? []).filter((c) => OPEN_COLLECTION.includes(c.status))
        if (open.length !== 1 || open[0].id !== collectionId || open[0].status !== "partially_authorized") return
        await createOrUpdateOrderPaymentCollectionWorkflow(container).run({ input: { order_id: orderId } })
      },
      { timeout: 30 }
    )
    .then(
      // Not guarded by the row as read before the lock: another settle may have listed it since (a write only if so).
      () => odemeModule(container).noteMedusaRefusal(sessionId, "rest_not_asked", null),
      async (err: unknown) => {
        // The payment is captured and on its order. Not a settle failure: counting it as one would list a captured
        // payment as "Medusa keeps refusing the order". Its own item; Ask Odeme now settles again, which runs this again.
        const reason = errorText(err)
        container
          .resolve<Logger>(ContainerRegistrationKeys.LOGGER)
          .warn(
            `medusa-payment-odeme: payment ${sessionId} is on order ${orderId}, but no payment collection could be opened for what the order still owes: ${reason}`
          )
        await odemeModule(container).noteMedusaRefusal(sessionId, "rest_not_asked", { order_id: orderId, reason })
      }
    )
}

/**
 * The edited order's rest no longer needs asking for: its item goes. Only when the payment, as read, lists it, so
 * the settle of every other payment writes nothing here.
 */
async function forgetRestNotAsked(container: MedusaContainer, payment: OdemePaymentRow): Promise<void> {
  if ((payment.metadata as Record<string, unknown> | null)?.rest_not_asked)
    await odemeModule(container).noteMedusaRefusal(payment.session_id, "rest_not_asked", null)
}

/** A collection that still asks for money: the ones Medusa's workflow for an order's balance picks from. */
const OPEN_COLLECTION = ["not_paid", "awaiting", "authorized", "partially_authorized"]

/**
 * Runs `job` holding Medusa's own lock of the cart, if there is a cart: taken as Medusa's cart workflows take it
 * (acquireLockStep: `acquire` of the cart's id, tried every 0.3 s for up to 30 s), since a locking provider's
 * `execute` need not exclude `acquire` (the PostgreSQL provider's does not).
 */
export async function underCartLock<T>(
  container: MedusaContainer,
  cartId: string | null,
  job: () => Promise<T>,
  waitMs: number = CART_LOCK_TIMEOUT_MS
): Promise<T> {
  if (!cartId) return job()
  const locking = container.resolve(Modules.LOCKING)
  const ownerId = `odeme-settle:${randomUUID()}`
  const giveUpAt = Date.now() + waitMs
  for (;;) {
    try {
      await locking.acquire(cartId, { ownerId, expire: CART_LOCK_EXPIRE_SECONDS })
      break
    } catch {
      // A store route passes this on to the customer (the form route): a code and a text to show, with neither the
      // cart's id nor the locking provider's own words (a storefront may show the message as it is).
      if (Date.now() >= giveUpAt) {
        throw odemeError(
          MedusaError.Types.CONFLICT,
          "odeme.cart_busy",
          "The cart is being updated by another request (a completion or a capture); please try again in a moment."
        )
      }
      await new Promise((r) => setTimeout(r, 300))
    }
  }
  try {
    return await job()
  } finally {
    await locking.release(cartId, { ownerId })
  }
}

const CART_LOCK_TIMEOUT_MS = 30_000
/** As Medusa's cart workflows: a holder that died leaves the cart locked this long at most. */
const CART_LOCK_EXPIRE_SECONDS = 120

/**
 * Money captured onto a canceled order is given back: what the session's
 * payment has captured and not refunded is refunded in Medusa (the provider
 * records that refund as money to pay back in the merchant panel). What it
 * still holds afterwards (`refunds: "reject"`, or a refund that failed) is
 * recorded as money to pay back by hand, once per session. Call it under the
 * session's settle lock. Whether anything was captured.
 */
export async function giveBackCapture(container: MedusaContainer, sessionId: string): Promise<boolean> {
  const payment = await paymentOfSession(container, sessionId)
  if (!payment) return false
  const odeme = odemeModule(container)
  // With refunds refused it is not run at all (the provider would refuse it); otherwise what the payment still
  // holds after it is what was not given back (Medusa's payment module drops a refund its provider refused).
  if (MathBN.gt(held(payment), 0) && odeme.odemeOptions.refunds !== "reject") {
    await refundPaymentsWorkflow(container)
      .run({ input: [{ payment_id: payment.id, amount: held(payment), note: "Captured while the order was being canceled" }] })
      .catch((err) =>
        // What the payment still holds is read below and listed: the failure is only for the log.
        container
          .resolve<Logger>(ContainerRegistrationKeys.LOGGER)
          .warn(`medusa-payment-odeme: Medusa could not refund session ${sessionId}'s capture: ${errorText(err)}`)
      )
  }
  const after = (await paymentOfSession(container, sessionId)) ?? payment
  if (MathBN.gt(held(after), 0)) {
    const row = await odeme.getPayment(sessionId)
    if (row) {
      await odeme.recordRefund({
        session_id: sessionId,
        medusa_refund_id: null,
        // Medusa's amount, so Medusa's (the session's) currency: not what the service charged, which may be TRY.
        amount: formatAmount(held(after) as never),
        currency: row.currency,
      })
    }
  }
  return MathBN.gt(sum(payment.captures), 0)
}

/** The session's Medusa payment, found by its session id, which the payment keeps when Medusa deletes the session. */
async function paymentOfSession(container: MedusaContainer, sessionId: string): Promise<MedusaPayment | undefined> {
  const { data } = await container
    .resolve(ContainerRegistrationKeys.QUERY)
    .graph({ entity: "payment", fields: PAYMENT_FIELDS, filters: { payment_session_id: sessionId } })
  return data[0] as MedusaPayment | undefined
}

/** An API transfer that failed or expired: its "awaiting" order is canceled when the merchant wants that. */
export async function cancelUnpaidOrder(container: MedusaContainer, payment: OdemePaymentRow, enabled: boolean): Promise<void> {
  if (!enabled || payment.flow !== "transfer_api") return
  const { orderId, cartId, orderStatus } = await medusaState(container, payment.session_id)
  // Only the order this transfer was placed with waits for it; a balance's transfer leaves its order as it is.
  if (!orderId || !cartId || orderStatus === "canceled") return
  // Completed or archived by a person while nothing paid it: theirs to decide, from an item.
  if (orderStatus !== "pending") return orderNotCanceled(container, payment.session_id, orderId, `the order is ${orderStatus}`)
  try {
    // Under the settle lock, on the payment as it is now: a verified success may have reopened the transfer since
    // it was written expired (its money pays the order), and a cancel must not land on the order it just paid.
    // (The cancel's own order.canceled subscriber takes this lock after the workflow has returned.)
    await withSettleLock(container, payment.session_id, async () => {
      const now = await odemeModule(container).getPayment(payment.session_id)
      if (now?.status !== payment.status) return
      await cancelOrderWorkflow(container).run({ input: { order_id: orderId, no_notification: false } })
    })
  } catch (err) {
    // Shipped before the money came, say: the merchant decides, from an item.
    await orderNotCanceled(container, payment.session_id, orderId, err)
  }
}

/** An unpaid transfer's order that was not canceled (Medusa refused, or a person completed it): logged, and listed until resolved. */
async function orderNotCanceled(container: MedusaContainer, sessionId: string, orderId: string, err: unknown): Promise<void> {
  const reason = errorText(err)
  const odeme = odemeModule(container)
  // Written first, then the order read: a cancel committed before the read is seen here, and a later one runs the
  // order.canceled subscriber after this write, which takes the item away. Read first, a cancel between the read
  // and the write would leave the item on a canceled order.
  await odeme.noteMedusaRefusal(sessionId, "order_not_canceled", { order_id: orderId, reason })
  const { data } = await container.resolve(ContainerRegistrationKeys.QUERY).graph({ entity: "order", fields: ["status"], filters: { id: orderId } })
  // Canceled meanwhile (by a person, or by another check of the same transfer): nothing to list.
  if ((data[0] as { status?: string } | undefined)?.status === "canceled") return odeme.forgetOrderNotCanceled(orderId)
  container
    .resolve<Logger>(ContainerRegistrationKeys.LOGGER)
    .warn(`medusa-payment-odeme: could not cancel order ${orderId}, whose transfer ${sessionId} was not paid: ${reason}`)
}

/**
 * An API transfer was its order's way to be paid (the customer has its IBAN) until a second tab chose another
 * payment on the order's collection, which made Medusa delete its session (here: `canceled`, still asked about
 * until its deadline). Once the transfer can no longer be paid (failed, or past its deadline) nothing else ends
 * that order: it is canceled as an expired transfer's order is, unless it was paid, a person moved it on, or
 * another of its payments may still be made. `wait`: ask again later (another of the plugin's transfers of the
 * order is waiting or of unknown creation, or one of its payments is pending or failed and was started, given a
 * form, returned to or notified about within `transfer.expiryHours`, or has a webhook not yet judged: its
 * customer may be paying it now); `done`: nothing
 * more to do about this order (canceled, or left to the merchant: paid, in review, another provider's live session).
 */
export async function cancelAbandonedOrder(container: MedusaContainer, payment: OdemePaymentRow): Promise<"done" | "wait"> {
  const cfg = odemeModule(container).odemeOptions.transfer
  // Only the order this transfer's own cart was placed as (a balance's transfer leaves its order as it is).
  if (!cfg.cancelOrderOnExpiry || payment.flow !== "transfer_api" || payment.status !== "canceled" || !payment.order_id || !payment.cart_id)
    return "done"
  // Under the cart's lock, which Medusa's processPaymentWorkflow holds while it captures a payment of this order's
  // collection: a second tab's payment is either captured before this reads it (paid: done) or waits for the cancel
  // and is then given back as a canceled order's; never captured onto an order this is canceling.
  return underCartLock(container, payment.cart_id, () => abandonedOrderLocked(container, payment, payment.order_id!))
}

async function abandonedOrderLocked(container: MedusaContainer, payment: OdemePaymentRow, orderId: string): Promise<"done" | "wait"> {
  const odeme = odemeModule(container)
  const { data } = await container.resolve(ContainerRegistrationKeys.QUERY).graph({
    entity: "order",
    fields: ["id", "status", "cart.id", "payment_collections.status", ...ODEME_SESSION_FIELDS],
    filters: { id: orderId },
  })
  const order = data[0] as
    | { status?: string; cart?: { id: string } | null; payment_collections?: Array<(CollectionSessions & { status: string }) | null> | null }
    | undefined
  if (!order || order.status === "canceled" || order.cart?.id !== payment.cart_id) return "done"
  const collections = (order.payment_collections ?? []).filter((c): c is CollectionSessions & { status: string } => !!c)
  if (collections.some((c) => !UNPAID_COLLECTION.includes(c.status))) return "done"
  // Completed or archived by a person while nothing paid it: theirs to decide, from an item.
  if (order.status !== "pending") {
    await orderNotCanceled(container, payment.session_id, orderId, `the order is ${order.status}`)
    return "done"
  }
  const sessions = collections.flatMap((c) => c.payment_sessions ?? []).filter((s) => !!s && s.id !== payment.session_id)
  // Another provider's payment: the plugin cannot tell whether it will be made; the merchant decides, from an item.
  const other = sessions.find((s) => !isOdemeProvider(s!.provider_id) && !ENDED_SESSION.includes(s!.status ?? ""))
  if (other) {
    await orderNotCanceled(container, payment.session_id, orderId, `another payment method (${other.provider_id}) was chosen for the order`)
    return "done"
  }
  const others = collections.flatMap((c) => odemeSessionsOf(c).map((s) => s.id)).filter((id) => id !== payment.session_id)
  const since = {
    changed: new Date(Date.now() - odeme.odemeOptions.transfer.expiryHours * 3_600_000),
    // A form is signed for the service's 30-minute window; what its payment makes arrives soon after.
    noted: new Date(Date.now() - RECENT_PAYING_MS),
  }
  for (const r of others.length ? await odeme.getPayments(others) : []) {
    // Paid, or a person decides about the money (an item lists it, and resolving it may mean it was kept): theirs.
    if (r.status === "paid" || r.status === "review") return "done"
    if (r.status === "awaiting_transfer") return "wait"
    // A transfer whose creation may have happened: wait until it is known, or a person resolved it (no transfer).
    if (r.status === "unknown" && !r.resolved_at) return "wait"
    // Started or changed within transfer.expiryHours, a form signed, a return or a webhook (not refused) within the
    // last hours, or a webhook not yet judged: its customer may be paying now. A failed one too: the service's page
    // lets the customer try again on the same form. (Forms and notifications count for hours, not days: whoever
    // knows the cart's id could otherwise keep the order, and its stock, waiting.)
    if ((r.status === "pending" || r.status === "failed") && (await odeme.maybePaying(r.session_id, since))) return "wait"
  }
  try {
    await cancelOrderWorkflow(container).run({ input: { order_id: orderId, no_notification: false } })
  } catch (err) {
    await orderNotCanceled(container, payment.session_id, orderId, err)
  }
  return "done"
}

/** How long a form signed, a return or a webhook shows a customer who may be paying (the form lives 30 minutes). */
const RECENT_PAYING_MS = 2 * 3_600_000

/** A collection nothing was authorized or captured on. */
const UNPAID_COLLECTION = ["not_paid", "awaiting", "canceled"]
/** Sessions of another provider that will not be paid. */
const ENDED_SESSION = ["canceled", "error"]
