"use client"

import { placeOdemeOrder, retrieveOdemePaymentStatus, type OdemeCartAnswer } from "@lib/data/odeme"
import { odemeStrings } from "@lib/odeme/strings"
import ErrorMessage from "@modules/checkout/components/error-message"
import LocalizedClientLink from "@modules/common/components/localized-client-link"
import { Heading, Text } from "@modules/common/components/ui"
import {
  completeWhenPaid,
  odemeErrorCode,
  odemeErrorMessage,
  odemeNotCompletedMessage,
  odemeReasonMessage,
  type OdemeErrorCode,
  type OdemeFailureReason,
  type OdemeLanguage,
  type OdemeStorefrontStatus,
} from "medusa-payment-odeme/storefront"
import { useEffect, useState } from "react"

type Props = {
  status: OdemeStorefrontStatus
  sessionId: string
  cartId: string | null
  reason: OdemeFailureReason | null
  returnedFromCancel: boolean
  language: OdemeLanguage
}

type Phase =
  | { name: "confirming" }
  | { name: "placing" }
  /** `returnedFromCancel`: canceled or declined on the service's page, which one is not known (odemeNotCompletedMessage). */
  | { name: "failed"; reason: OdemeFailureReason | null; returnedFromCancel?: boolean }
  | { name: "still_confirming" }
  | { name: "error"; message: string; payAgain: boolean }

/** Codes whose text asks the shopper to wait (the order follows), not to pay again: the page says it is being confirmed. */
const WAIT_CODES: readonly OdemeErrorCode[] = ["odeme.payment_pending", "odeme.payment_in_progress"]
/** Codes whose text says not to pay again: no link back to the payment step. */
const NO_PAY_AGAIN_CODES: readonly OdemeErrorCode[] = ["odeme.payment_in_review", "odeme.already_paid"]

/** The error phase for a failure, in the shopper's language (the plugin's code as its text). */
const errorPhase = (e: unknown, language: OdemeLanguage, fallback: string): Phase => {
  const code = odemeErrorCode(e)
  return { name: "error", message: odemeErrorMessage(e, language, fallback), payAgain: !code || !NO_PAY_AGAIN_CODES.includes(code) }
}

/** Medusa's answer of the cart, as placeOdemeOrder gives it (completeWhenPaid's `error` for a cart that did not become an order). */
const isCartAnswer = (e: unknown): e is OdemeCartAnswer => (e as { type?: unknown } | null)?.type === "cart"

/** Next.js signals a navigation (the redirect to the order page) with an error of this digest. */
const isRedirect = (e: unknown) =>
  typeof (e as { digest?: unknown })?.digest === "string" && (e as { digest: string }).digest.startsWith("NEXT_REDIRECT")

/**
 * The page the plugin sends the customer back to. Its parameters are only
 * navigation: the page asks the plugin (at most a minute), then completes the
 * cart once through placeOdemeOrder (the starter's `placeOrder`: cart cookie
 * removed, caches revalidated, redirect to /[countryCode]/order/:id/confirmed)
 * when the payment is confirmed, or a transfer made on the payment page exists.
 * Never in a loop: the webhook completes the cart too, and a 409 while it does
 * is waited for and asked once more (completeWhenPaid). When time is up, or
 * Medusa answers the cart without the plugin saying why, it says, calmly, that
 * the payment is being confirmed and the order will follow; a refusal with the
 * plugin's code (e.g. `odeme.payment_in_review`) shows that code's text.
 */
const OdemeReturn = ({ status, sessionId, cartId, reason, returnedFromCancel, language }: Props) => {
  const t = odemeStrings[language]
  // Back through the cancel address with nothing confirmed: canceled or declined on the service's page
  // (it sends both there), not paid there; a neutral text, and an offer to pay again.
  const ended = status === "failed" || returnedFromCancel
  const [phase, setPhase] = useState<Phase>(
    status === "failed"
      ? { name: "failed", reason }
      : returnedFromCancel
        ? { name: "failed", reason: null, returnedFromCancel: true }
        : { name: "confirming" }
  )

  useEffect(() => {
    if (ended) return
    const controller = new AbortController()
    const run = async () => {
      try {
        const result = await completeWhenPaid({
          fetchStatus: async () => {
            const answer = await retrieveOdemePaymentStatus(sessionId, cartId)
            if (!answer.ok) throw answer
            return answer.value
          },
          onStatus: (s) => {
            if (s.status === "paid" || s.state === "awaiting_transfer") setPhase({ name: "placing" })
          },
          completeCart: async () => {
            setPhase({ name: "placing" })
            try {
              const placed = await placeOdemeOrder(cartId)
              if (!placed.ok) throw placed // e.g. Medusa's 409 while the webhook completes the cart
              // Medusa answered the cart: its refusal keeps the plugin's code (placeOrder would drop it).
              return { type: "cart" as const, error: placed.value }
            } catch (e) {
              if (isRedirect(e)) return { type: "order" as const, order: null }
              throw e
            }
          },
          intervalMs: 3_000,
          signal: controller.signal,
        })
        if (controller.signal.aborted) return
        if (result.outcome === "failed") setPhase({ name: "failed", reason: null })
        else if (result.outcome === "confirming") {
          // Not confirmed in time, or the cart answered: a refusal with the plugin's code is shown as
          // that code's text, unless it only asks to wait; otherwise the webhook still places the order.
          // (Only the cart's answer: a status question that kept failing is no refusal.)
          const refusal = isCartAnswer(result.error) ? result.error.code : null
          setPhase(refusal && !WAIT_CODES.includes(refusal) ? errorPhase(result.error, language, t.orderFailed) : { name: "still_confirming" })
        }
        // "order": the browser is on its way to the order page.
      } catch (e) {
        if (controller.signal.aborted || isRedirect(e)) return
        setPhase(errorPhase(e, language, t.orderFailed))
      }
    }
    void run()
    return () => controller.abort()
  }, [ended, sessionId, cartId, language, t.orderFailed])

  return (
    <div className="flex flex-col gap-y-4 max-w-xl" data-testid="odeme-return" data-phase={phase.name}>
      <Heading level="h1" className="text-3xl-regular">
        {t.returnTitle}
      </Heading>
      {(phase.name === "confirming" || phase.name === "placing") && (
        <Text className="txt-medium text-ui-fg-subtle" role="status">
          {phase.name === "confirming" ? t.confirming : t.placingOrder}
        </Text>
      )}
      {phase.name === "failed" && (
        <Text className="txt-medium text-ui-fg-base" role="alert" data-testid="odeme-failure-reason">
          {phase.returnedFromCancel ? odemeNotCompletedMessage(language) : odemeReasonMessage(phase.reason, language)}
        </Text>
      )}
      {phase.name === "still_confirming" && (
        <Text className="txt-medium text-ui-fg-base" role="status" data-testid="odeme-still-confirming">
          {t.stillConfirming}
        </Text>
      )}
      {phase.name === "error" && <ErrorMessage error={phase.message} data-testid="odeme-return-error" />}
      {(phase.name === "failed" || (phase.name === "error" && phase.payAgain)) && (
        <LocalizedClientLink href="/checkout?step=payment" className="txt-medium text-ui-fg-interactive hover:text-ui-fg-interactive-hover">
          {t.backToPayment}
        </LocalizedClientLink>
      )}
    </div>
  )
}

export default OdemeReturn
