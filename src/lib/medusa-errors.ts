import { MedusaError } from "@medusajs/framework/utils"
import { OdemeApiError } from "../client"
import type { PaymentState } from "../modules/odeme/models/states"
import { messageWithCode, type OdemeErrorCode } from "../storefront/error-codes"
import { errorText } from "./error-text"

type Logger = { warn(message: string): void }

/**
 * An error a customer can meet at checkout: a Medusa error type (which picks
 * the HTTP status and whether cart completion answers `{ type: "cart", error }`),
 * a stable code the storefront translates, and an English message for the
 * merchant's logs and for storefronts that show it as it is.
 */
export function odemeError(type: string, code: OdemeErrorCode, message: string): MedusaError {
  return new MedusaError(type, messageWithCode(message, code), code)
}

/**
 * Turns a client error into a MedusaError a merchant (and the storefront) can
 * act on. The client's errors never hold the API key. The service's own text
 * goes to the log, not to the customer: it is the merchant who can act on it.
 */
export function toMedusaError(
  err: unknown,
  action: string,
  /** The type for failures on the service's side; authorization uses PAYMENT_AUTHORIZATION_ERROR so the storefront gets `{ type: "cart", error }`. */
  serviceFailureType: string = MedusaError.Types.UNEXPECTED_STATE,
  logger?: Logger
): MedusaError {
  if (err instanceof MedusaError) return err
  if (!(err instanceof OdemeApiError)) {
    // The plugin's own failure: its text is for the merchant's log, not for the customer.
    logger?.warn(`medusa-payment-odeme: unexpected error while trying to ${action}: ${errorText(err)}`)
    return odemeError(serviceFailureType, "odeme.service_unavailable", `Could not ${action} right now; please try again in a moment.`)
  }
  if (err.serviceMessage) logger?.warn(`medusa-payment-odeme: the payment service said, while trying to ${action}: ${err.serviceMessage}`)
  if (err.kind === "timeout" || err.kind === "network") {
    return odemeError(
      serviceFailureType,
      "odeme.service_unavailable",
      `The payment service did not answer while trying to ${action} (${err.kind}). Please try again in a moment.`
    )
  }
  if (err.kind === "invalid_response") {
    return odemeError(
      serviceFailureType,
      "odeme.service_invalid_answer",
      `The payment service sent an unexpected answer while trying to ${action}${err.field ? ` (field ${err.field})` : ""}.`
    )
  }
  if (err.status === 401 || err.status === 403) {
    return odemeError(
      serviceFailureType,
      "odeme.service_misconfigured",
      `The payment service refused the store's access while trying to ${action} (HTTP ${err.status}). The store must check apiKey, apiId, mode, the API access IP setting and, for bank transfers, the bank-transfer permission and the webhook (callback) URL in the merchant panel.`
    )
  }
  if (err.status && err.status >= 400 && err.status < 500) {
    return odemeError(MedusaError.Types.INVALID_DATA, "odeme.service_refused", `The payment service refused to ${action} (HTTP ${err.status}).`)
  }
  return odemeError(
    serviceFailureType,
    "odeme.service_unavailable",
    `The payment service failed while trying to ${action} (HTTP ${err.status ?? "?"}). Please try again in a moment.`
  )
}

/**
 * Why a payment in `state` cannot be paid now, in the customer's words: the one mapping of the plugin's states
 * to refusals (a checkout's authorize while nothing is verified, a fresh form for a payment that is no longer
 * waiting). `paid` is a refusal only where paying again is asked for.
 */
export function unpayableError(state: PaymentState, type: string): MedusaError {
  switch (state) {
    case "paid":
      return odemeError(type, "odeme.already_paid", "This payment has already been made; there is nothing more to pay.")
    case "failed":
      return odemeError(type, "odeme.payment_failed", "The payment failed at the payment service. Please try again or choose another payment method.")
    case "review":
      return odemeError(type, "odeme.payment_in_review", "The payment could not be confirmed automatically and is being reviewed by the store.")
    case "canceled":
    case "expired":
      return odemeError(type, "odeme.payment_canceled", "This payment was canceled; please start the payment again.")
    default:
      // Nothing verified yet (a transfer chosen on the service's page waits for its money): the storefront asks again.
      return odemeError(type, "odeme.payment_pending", "The payment has not been confirmed by the payment service yet.")
  }
}
