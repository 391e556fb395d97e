"use client"

import { getOdemeCheckoutForm, placeOdemeOrder } from "@lib/data/odeme"
import { useOdemeLanguage } from "@lib/odeme/language"
import { odemeStrings } from "@lib/odeme/strings"
import { HttpTypes } from "@medusajs/types"
import ErrorMessage from "@modules/checkout/components/error-message"
import { Button } from "@modules/common/components/ui"
import { odemeErrorMessage, odemeProviderKind, submitQuickCheckoutForm } from "medusa-payment-odeme/storefront"
import { useState } from "react"

type Props = {
  cart: HttpTypes.StoreCart
  notReady: boolean
  "data-testid"?: string
}

/** Next.js signals a server action's `redirect()` with an error of this digest: it is success, not a failure. */
const isRedirect = (e: unknown) =>
  typeof (e as { digest?: unknown })?.digest === "string" && (e as { digest: string }).digest.startsWith("NEXT_REDIRECT")

/**
 * The review step's button for both Odeme providers.
 * Quick Checkout: the customer leaves for the service's page with a form
 * signed just now, and comes back to /[countryCode]/checkout/return.
 * Bank transfer: the order is placed right away (placeOdemeOrder, the starter's
 * `placeOrder` keeping Medusa's refusal; its payment waits for the money); the
 * order page shows the IBAN. A refusal shows the text of the plugin's code
 * (e.g. `odeme.creation_unknown`: do not create a second transfer).
 */
const OdemePaymentButton = ({ cart, notReady, "data-testid": dataTestId }: Props) => {
  const language = useOdemeLanguage()
  const t = odemeStrings[language]
  const [submitting, setSubmitting] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const session = cart.payment_collection?.payment_sessions?.find((s) => odemeProviderKind(s.provider_id) !== null)
  const kind = odemeProviderKind(session?.provider_id)

  const payOnServicePage = async () => {
    const result = await getOdemeCheckoutForm(session!.id, cart.id)
    if (!result.ok) {
      // The plugin's errors carry a stable code, shown in the customer's language; others read as `formFailed`.
      setError(odemeErrorMessage(result, language, t.formFailed))
      setSubmitting(false)
      return
    }
    // Stays "submitting": the browser is leaving.
    submitQuickCheckoutForm(result.value)
  }

  const placeTransferOrder = async () => {
    try {
      // Redirects to the order page on success; a cart back means the payment was not authorized:
      // its refusal (or the failure) carries the plugin's code, shown as that code's text.
      const placed = await placeOdemeOrder(cart.id)
      setError(odemeErrorMessage(placed.ok ? placed.value : placed, language, t.transferNotCreated))
    } catch (e) {
      if (isRedirect(e)) return // navigating to the order page
      setError(odemeErrorMessage(e, language, t.transferNotCreated))
    } finally {
      setSubmitting(false)
    }
  }

  const handlePayment = () => {
    setSubmitting(true)
    setError(null)
    void (kind === "checkout" ? payOnServicePage() : placeTransferOrder())
  }

  return (
    <>
      <Button disabled={notReady || !session} isLoading={submitting} onClick={handlePayment} size="large" data-testid={dataTestId}>
        {kind === "checkout" ? t.payByCard : t.placeTransferOrder}
      </Button>
      {submitting && kind === "checkout" && !error && (
        <p className="pt-2 txt-small text-ui-fg-subtle" data-testid="odeme-redirecting">
          {t.redirecting}
        </p>
      )}
      <ErrorMessage error={error} data-testid="odeme-payment-error-message" />
    </>
  )
}

export default OdemePaymentButton
