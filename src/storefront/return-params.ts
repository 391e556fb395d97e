import { z } from "zod"
import { isOdemeFailureReason, type OdemeFailureReason } from "./reasons"
import { storefrontStatusSchema, type OdemeStorefrontStatus } from "./responses"

/** Query values as Next.js (`searchParams`) or URLSearchParams give them. */
export type SearchParamsLike = URLSearchParams | Record<string, string | string[] | undefined>

export interface OdemeReturnParams {
  status: OdemeStorefrontStatus
  sessionId: string
  cartId: string | null
  /** Only on a verified failure; null for an unknown code. */
  reason: OdemeFailureReason | null
  /**
   * The service sent the customer back through its cancel address and nothing is verified yet (`status` is
   * `pending`): the payment was canceled or declined on the service's page (it sends both there; the
   * redirect is not proof). Show `odemeNotCompletedMessage` (neutral: never "you canceled") and offer to
   * pay again; a payment that is confirmed after all still becomes the order (the plugin completes the cart itself).
   */
  returnedFromCancel: boolean
}

const idSchema = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[A-Za-z0-9_]+$/)

function first(params: SearchParamsLike, name: string): string | undefined {
  if (params instanceof URLSearchParams) return params.get(name) ?? undefined
  const v = params[name]
  return Array.isArray(v) ? v[0] : v
}

/**
 * Reads the plugin's redirect to the storefront
 * (`?status=paid|pending|failed&session_id=[&reason=][&returned=cancel]`). These are
 * navigation only, never proof of payment: the order is placed only when
 * Medusa completes the cart. Null when the address was not made by the plugin.
 */
export function parseOdemeReturnParams(params: SearchParamsLike): OdemeReturnParams | null {
  const status = storefrontStatusSchema.safeParse(first(params, "status"))
  const sessionId = idSchema.safeParse(first(params, "session_id"))
  if (!status.success || !sessionId.success) return null
  const cartId = idSchema.safeParse(first(params, "cart_id"))
  const reason = first(params, "reason")
  return {
    status: status.data,
    sessionId: sessionId.data,
    cartId: cartId.success ? cartId.data : null,
    reason: status.data === "failed" && isOdemeFailureReason(reason) ? reason : null,
    returnedFromCancel: status.data === "pending" && first(params, "returned") === "cancel",
  }
}
