import { MedusaError } from "@medusajs/framework/utils"
import { OdemeApiError } from "../client"

/**
 * Turns a client error into a MedusaError a merchant (and the storefront) can
 * act on. The client's errors never hold the API key, and only their safe
 * fields are copied here.
 */
export function toMedusaError(
  err: unknown,
  action: string,
  /** The type for failures on the service's side; authorization uses PAYMENT_AUTHORIZATION_ERROR so the storefront gets `{ type: "cart", error }`. */
  serviceFailureType: string = MedusaError.Types.UNEXPECTED_STATE
): MedusaError {
  if (err instanceof MedusaError) return err
  if (err instanceof OdemeApiError) {
    if (err.kind === "timeout" || err.kind === "network") {
      return new MedusaError(
        serviceFailureType,
        `The payment service did not answer while trying to ${action} (${err.kind}). Please try again in a moment.`
      )
    }
    if (err.kind === "invalid_response") {
      return new MedusaError(
        serviceFailureType,
        `The payment service sent an unexpected answer while trying to ${action}${err.field ? ` (field ${err.field})` : ""}.`
      )
    }
    if (err.status === 401 || err.status === 403) {
      return new MedusaError(
        serviceFailureType,
        `The payment service refused the merchant credentials while trying to ${action} (HTTP ${err.status}${
          err.serviceMessage ? `: ${err.serviceMessage}` : ""
        }). Check apiKey, apiId, mode and the API access IP setting in the merchant panel.`
      )
    }
    if (err.status && err.status >= 400 && err.status < 500) {
      return new MedusaError(
        MedusaError.Types.INVALID_DATA,
        `The payment service refused to ${action}: ${err.serviceMessage ?? `HTTP ${err.status}`}`
      )
    }
    return new MedusaError(
      serviceFailureType,
      `The payment service failed while trying to ${action} (HTTP ${err.status ?? "?"}). Please try again in a moment.`
    )
  }
  return new MedusaError(
    MedusaError.Types.UNEXPECTED_STATE,
    `Unexpected error while trying to ${action}: ${err instanceof Error ? err.message : String(err)}`
  )
}
