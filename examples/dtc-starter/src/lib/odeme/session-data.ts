import { odemeProviderKind } from "medusa-payment-odeme/storefront"

/** What the customer entered for a bank transfer in the payment step. */
export type OdemeTransferChoice = { bankId: number | null; payerName: string }

/** The service matches the sender's name; one word is never a full name. */
export const isPayerNameValid = (name: string) => name.trim().split(/\s+/).filter(Boolean).length >= 2 && name.trim().length <= 100

/** Whether "Continue to review" may be pressed for this provider. */
export function isOdemeChoiceReady(providerId: string, transfer: OdemeTransferChoice | null): boolean {
  if (odemeProviderKind(providerId) !== "transfer") return true
  return !!transfer && transfer.bankId !== null && isPayerNameValid(transfer.payerName)
}

/**
 * The `data` of `initiatePaymentSession` for an Odeme provider, undefined
 * for any other. Quick Checkout gets the return page of this storefront
 * (with the country code the starter's routes need); the plugin accepts it
 * only on an origin configured as `storefrontUrl` / `storefrontOrigins`.
 * Runs in the browser (the payment step's submit handler).
 */
export function odemeSessionData(providerId: string, transfer: OdemeTransferChoice | null): Record<string, unknown> | undefined {
  switch (odemeProviderKind(providerId)) {
    case "checkout": {
      const countryCode = window.location.pathname.split("/")[1]
      return { return_url: `${window.location.origin}/${countryCode}/checkout/return` }
    }
    case "transfer":
      if (!transfer || transfer.bankId === null || !isPayerNameValid(transfer.payerName)) {
        // The plugin's own code: the payment step shows its Turkish or English text.
        throw Object.assign(new Error("Choose a bank account and enter the sender's full name"), {
          code: "odeme.transfer_details_missing",
        })
      }
      return { bank_id: transfer.bankId, customer_name: transfer.payerName.trim().replace(/\s+/g, " ") }
    default:
      return undefined
  }
}
