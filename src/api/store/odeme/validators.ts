import { z } from "@medusajs/framework/zod"

/**
 * What the store routes accept, checked by Medusa's validators in
 * `src/api/middlewares.ts`. The storefront proves the session is its own
 * with what only it knows (see `findOwnedSession`): the cart's id for a
 * checkout, or, for an order's balance (Admin's "Copy payment link":
 * `/payment-collection/{id}?order_id={order}`), the payment collection's id
 * with its order's id. Which of the two was given is checked by the route.
 */
const id = z.string().min(1).max(100)
const proof = {
  cart_id: id.optional(),
  payment_collection_id: id.optional(),
  order_id: id.optional(),
}

export const StoreGetOdemePaymentSessionParams = z.object(proof)
export type StoreGetOdemePaymentSessionParamsType = z.infer<typeof StoreGetOdemePaymentSessionParams>

export const StoreCreateOdemeCheckoutForm = z.object(proof)
export type StoreCreateOdemeCheckoutFormType = z.infer<typeof StoreCreateOdemeCheckoutForm>

/** Authorizes a balance's session (a collection without a cart; a cart's is authorized by its completion). */
export const StoreAuthorizeOdemeBalance = z.object({ payment_collection_id: id, order_id: id })
export type StoreAuthorizeOdemeBalanceType = z.infer<typeof StoreAuthorizeOdemeBalance>

export type OwnershipProof = z.infer<z.ZodObject<typeof proof>>
