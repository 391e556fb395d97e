import type { MedusaRequest } from "@medusajs/framework/http"
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, MedusaError } from "@medusajs/framework/utils"
import { odemeError } from "../../lib/medusa-errors"
import { hasNulCharacter } from "../../lib/notification-shape"
import { payability } from "../../workflows/settle/read-model"
import type { OwnershipProof } from "../store/odeme/validators"

export interface OwnedSession {
  id: string
  status: string
  provider_id: string
  payment_collection_id: string
  /** Set when the session pays an order's balance (a collection without a cart). */
  order_id: string | null
  /** The balance's order was canceled: nothing may be paid onto it any more. */
  order_canceled: boolean
  /** The cart it pays (null for an order's balance). */
  cart_id: string | null
}

/**
 * Which proof the storefront gave: a cart's id (checkout), or a payment
 * collection's id with its order's id (a balance link). Exactly one of the
 * two, so a route never has to guess what was checked.
 */
export function ownershipProof(q: OwnershipProof): { cartId: string } | { collectionId: string; orderId: string } {
  const balance = q.payment_collection_id !== undefined || q.order_id !== undefined
  if (q.cart_id !== undefined && !balance) return { cartId: q.cart_id }
  if (q.cart_id === undefined && q.payment_collection_id !== undefined && q.order_id !== undefined) {
    return { collectionId: q.payment_collection_id, orderId: q.order_id }
  }
  throw odemeError(
    MedusaError.Types.INVALID_DATA,
    "odeme.invalid_session_data",
    "cart_id is required (a checkout), or payment_collection_id with order_id instead (an order's payment link)."
  )
}

/**
 * A payment session of this plugin that belongs to what the storefront
 * proved: the cart (checkout), or the payment collection linked to the order
 * (a balance paid through Admin's payment link). The same 404 for "no such
 * session" and "not yours", so ids cannot be probed; knowing a session id
 * alone never reads nor changes a payment.
 */
export async function findOwnedSession(req: MedusaRequest, sessionId: string, q: OwnershipProof): Promise<OwnedSession> {
  const proof = ownershipProof(q)
  if ([sessionId, ...Object.values(q)].some((v) => typeof v === "string" && hasNulCharacter(v))) {
    // Could never match a stored id (and PostgreSQL refuses it): the same 404 as an unknown session.
    throw sessionNotFound()
  }
  const query = req.scope.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({
    entity: "payment_session",
    fields: ["id", "status", "provider_id", "payment_collection_id", "payment_collection.cart.id"],
    filters: { id: sessionId },
  })
  const session = data[0] as
    (Omit<OwnedSession, "order_id" | "order_canceled"> & { payment_collection?: { cart?: { id?: string } | null } | null }) | undefined
  if (!session || !session.provider_id.startsWith("pp_odeme-")) throw sessionNotFound()
  const cartId = session.payment_collection?.cart?.id
  let orderId: string | null = null
  let orderCanceled = false
  if ("cartId" in proof) {
    if (cartId !== proof.cartId) throw sessionNotFound()
  } else {
    // A cart's collection is paid through its cart; a balance collection has none and is linked to its order.
    if (cartId || session.payment_collection_id !== proof.collectionId) throw sessionNotFound()
    const { data: links } = await query.graph({
      entity: "order_payment_collection",
      fields: ["order_id", "order.status"],
      filters: { payment_collection_id: proof.collectionId, order_id: proof.orderId },
    })
    if (!links.length) throw sessionNotFound()
    orderId = proof.orderId
    orderCanceled = (links[0] as { order?: { status?: string } | null }).order?.status === "canceled"
  }
  return {
    id: session.id,
    status: session.status,
    provider_id: session.provider_id,
    payment_collection_id: session.payment_collection_id,
    order_id: orderId,
    order_canceled: orderCanceled,
    cart_id: cartId ?? null,
  }
}

/**
 * What can no longer be paid is not offered for payment (money sent anyway
 * is listed to give back): a balance or a cart whose order was canceled, a cart or
 * balance another payment still holds money of (a second tab still on the
 * payment step), and a session whose amount the collection no longer asks.
 */
export async function refuseUnpayable(scope: MedusaContainer, session: OwnedSession): Promise<void> {
  if (session.order_canceled) {
    throw odemeError(MedusaError.Types.NOT_ALLOWED, "odeme.order_canceled", "This order was canceled; its balance can no longer be paid.")
  }
  const { paidByOthers, amountChanged, cartOrderCanceled } = await payability(scope, session.id)
  if (cartOrderCanceled) {
    throw odemeError(MedusaError.Types.NOT_ALLOWED, "odeme.order_canceled", "This order was canceled; it can no longer be paid.")
  }
  // What the other payments hold, not Medusa's collection status: that stays "completed" after a refund in full.
  if (paidByOthers) {
    throw odemeError(MedusaError.Types.NOT_ALLOWED, "odeme.already_paid", "This cart or balance has already been paid by another payment.")
  }
  if (amountChanged) {
    throw odemeError(
      MedusaError.Types.NOT_ALLOWED,
      "odeme.amount_changed",
      "The amount to pay has changed since this payment session was opened; open a new payment session."
    )
  }
}

/** The one answer for "no such session" and "not yours" (a shopper reads it: a code, and no id). */
export function sessionNotFound(): MedusaError {
  return odemeError(MedusaError.Types.NOT_FOUND, "odeme.session_unknown", "Payment session was not found for this cart or order.")
}
