// apps/storefront/src/lib/data/cart.ts ("use server")
import { HttpTypes } from "@medusajs/types"

/**
 * Completes the cart (the cookie's when no id is given). On an order it
 * revalidates the caches, removes the cart cookie and redirects to
 * /[countryCode]/order/:id/confirmed; otherwise it returns the cart.
 */
export declare function placeOrder(cartId?: string): Promise<HttpTypes.StoreCart>

/** Starts a payment session of the cart's payment collection and revalidates the cart cache; throws Medusa's error. */
export declare function initiatePaymentSession(
  cart: HttpTypes.StoreCart,
  data: HttpTypes.StoreInitializePaymentSession
): Promise<HttpTypes.StorePaymentCollectionResponse>
