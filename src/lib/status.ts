import { PaymentSessionStatus } from "@medusajs/framework/utils"

/**
 * The plugin's one status vocabulary. Every answer of the service (transfer
 * `sale_status`, verified notification status) is first mapped to one of
 * these, and Medusa's session status is derived from it in one place.
 */
export type OdemeState =
  | "pending" // nothing confirmed yet, customer still on the way
  | "awaiting_transfer" // transfer created, money not yet arrived (sale_status 0)
  | "paid" // confirmed successful by the service
  | "failed" // rejected, cancelled or failed at the service
  | "canceled" // canceled on our side (no service call exists)
  | "expired" // pending transfer older than transfer.expiryHours
  | "review" // something that must not be accepted automatically

/** Spec §3.1: 0 pending, 1 approved, 2 cancelled/failed. */
export function stateFromSaleStatus(saleStatus: number): OdemeState {
  switch (saleStatus) {
    case 1:
      return "paid"
    case 2:
      return "failed"
    case 0:
      return "awaiting_transfer"
    default:
      return "review"
  }
}

/** Spec §3.2 / §6: notification and verify statuses. */
export function stateFromNotificationStatus(status: string | undefined | null): OdemeState {
  switch (String(status ?? "").toLowerCase()) {
    case "successful":
    case "success":
      return "paid"
    case "failed":
    case "error":
      return "failed"
    default:
      return "pending"
  }
}

/** Medusa's session status for a plugin state. */
export function toSessionStatus(state: OdemeState): PaymentSessionStatus {
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
      return PaymentSessionStatus.REQUIRES_MORE
    case "pending":
    default:
      return PaymentSessionStatus.PENDING
  }
}

/** Neutral word for the storefront (return redirect, status route). */
export function toStorefrontStatus(state: OdemeState): "paid" | "pending" | "failed" {
  if (state === "paid") return "paid"
  if (state === "failed" || state === "expired" || state === "canceled") return "failed"
  return "pending"
}
