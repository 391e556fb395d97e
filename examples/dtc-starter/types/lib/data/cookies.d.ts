// apps/storefront/src/lib/data/cookies.ts ("server-only")
export declare const getAuthHeaders: () => Promise<{ authorization: string } | Record<string, never>>

/** The `_medusa_cart_id` cookie. */
export declare const getCartId: () => Promise<string | undefined>

/** Removes the `_medusa_cart_id` cookie (once the cart became an order). */
export declare const removeCartId: () => Promise<void>

/** The cache tag of a resource ("carts", …) for `revalidateTag`. */
export declare const getCacheTag: (tag: string) => Promise<string>
