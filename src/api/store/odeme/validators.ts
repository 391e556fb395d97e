import { z } from "@medusajs/framework/zod"

/**
 * What the store routes accept, checked by Medusa's validators in
 * `src/api/middlewares.ts`. The cart id is the storefront's proof that the
 * session is its own (see `findOwnedSession`).
 */
const cartId = z.string().min(1).max(100)

export const StoreGetOdemePaymentSessionParams = z.object({ cart_id: cartId })
export type StoreGetOdemePaymentSessionParamsType = z.infer<typeof StoreGetOdemePaymentSessionParams>

export const StoreCreateOdemeCheckoutForm = z.object({ cart_id: cartId })
export type StoreCreateOdemeCheckoutFormType = z.infer<typeof StoreCreateOdemeCheckoutForm>
