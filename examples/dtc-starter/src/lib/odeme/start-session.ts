import { initiatePaymentSession } from "@lib/data/cart"
import { startOdemePaymentSession } from "@lib/data/odeme"
import { HttpTypes } from "@medusajs/types"
import { isOdemeProvider, odemeErrorMessage, type OdemeLanguage } from "medusa-payment-odeme/storefront"
import { odemeSessionData, type OdemeTransferChoice } from "./session-data"
import { odemeStrings } from "./strings"

/**
 * The payment step's "Continue to review" for any provider. Other providers keep
 * the starter's own call. An Odeme session is always started afresh with the
 * customer's choice, and a refusal (say `odeme.return_url_not_allowed`: this
 * storefront's origin is not in the plugin's `storefrontUrl` / `storefrontOrigins`)
 * is thrown as the text of its code in the customer's language, which the
 * starter's catch shows under the button.
 */
export async function startPaymentSession(
  cart: HttpTypes.StoreCart,
  providerId: string,
  transfer: OdemeTransferChoice | null,
  language: OdemeLanguage
): Promise<void> {
  if (!isOdemeProvider(providerId)) {
    await initiatePaymentSession(cart, { provider_id: providerId })
    return
  }
  const t = odemeStrings[language]
  let started: Awaited<ReturnType<typeof startOdemePaymentSession>>
  try {
    started = await startOdemePaymentSession(cart, providerId, odemeSessionData(providerId, transfer))
  } catch (e) {
    throw new Error(odemeErrorMessage(e, language, t.sessionFailed))
  }
  if (!started.ok) {
    if (typeof console !== "undefined") console.error("[odeme] payment session not started:", started.message)
    throw new Error(odemeErrorMessage(started, language, t.sessionFailed))
  }
}
