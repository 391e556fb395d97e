// apps/storefront/src/lib/data/cart.ts ("use server")
import { HttpTypes } from "@medusajs/types"

/** Starts a payment session of the cart's payment collection and revalidates the cart cache; throws Medusa's error. */
export declare function initiatePaymentSession(
  cart: HttpTypes.StoreCart,
  data: HttpTypes.StoreInitializePaymentSession
): Promise<HttpTypes.StorePaymentCollectionResponse>
