import { PaymentSessionStatus } from "@medusajs/framework/utils"
import type { PaymentState } from "../modules/odeme/models/states"

/** The plugin's payment state, under the name the admin and storefront types use. */
export type OdemeState = PaymentState

/** Medusa's session status for a plugin state: the one status mapper. */
export function toSessionStatus(state: PaymentState): PaymentSessionStatus {
  switch (state) {
    case "paid":
      return PaymentSessionStatus.CAPTURED
    case "awaiting_transfer":
      return PaymentSessionStatus.PENDING_AUTHORIZATION
    case "failed":
    case "expired":
      return PaymentSessionStatus.ERROR
    case "canceled":
      return PaymentSessionStatus.CANCELED
    case "review":
    case "unknown":
      return PaymentSessionStatus.REQUIRES_MORE
    case "pending":
    default:
      return PaymentSessionStatus.PENDING
  }
}

/** Neutral word for the storefront (return redirect, status route). */
export function toStorefrontStatus(state: PaymentState): "paid" | "pending" | "failed" {
  if (state === "paid") return "paid"
  if (state === "failed" || state === "expired" || state === "canceled") return "failed"
  return "pending"
}
