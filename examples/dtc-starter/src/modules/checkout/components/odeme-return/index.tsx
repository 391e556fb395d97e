"use client"

import { placeOdemeOrder, retrieveOdemePaymentStatus, type OdemeCartAnswer } from "@lib/data/odeme"
import { ODEME_STORE_SENDS_EMAIL, formatOdemeAmount, odemeStrings } from "@lib/odeme/strings"
import ErrorMessage from "@modules/checkout/components/error-message"
import LocalizedClientLink from "@modules/common/components/localized-client-link"
import { Button, Heading, Text } from "@modules/common/components/ui"
import {
  completeWhenPaid,
  odemeErrorCode,
  odemeErrorMessage,
  odemeFailureMessage,
  odemeReturnFailure,
  odemeShopperReference,
  odemeWaitingText,
  type OdemeErrorCode,
  type OdemeFailureCode,
  type OdemeFailureReason,
  type OdemeLanguage,
  type OdemePaymentSessionStatus,
  type OdemeStorefrontStatus,
  type OdemeWaitPhase,
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

/**
 * What the page shows, kept as codes and answers, never as translated text: the texts are
 * made at render, so a language change (the starter's locale select) shows them in the new one.
 */
type Phase =
  | { name: OdemeWaitPhase }
  /** A verified failure's reason, or `not_completed` (canceled or declined on the service's page, which one is not known). */
  | { name: "failed"; failure: OdemeFailureCode }
  | { name: "error"; error: unknown; payAgain: boolean }

type LastStatus = Pick<OdemePaymentSessionStatus, "status"> & Partial<OdemePaymentSessionStatus>

/** Codes whose text asks the shopper to wait (the order follows), not to pay again: the page says it is being confirmed. */
const WAIT_CODES: readonly OdemeErrorCode[] = ["odeme.payment_pending", "odeme.payment_in_progress"]
/** Codes whose text says not to pay again: no link back to the payment step. */
const NO_PAY_AGAIN_CODES: readonly OdemeErrorCode[] = ["odeme.payment_in_review", "odeme.already_paid"]

const errorPhase = (error: unknown): Phase => {
  const code = odemeErrorCode(error)
  return { name: "error", error, payAgain: !code || !NO_PAY_AGAIN_CODES.includes(code) }
}

/** Medusa's answer of the cart, as placeOdemeOrder gives it (completeWhenPaid's `error` for a cart that did not become an order). */
const isCartAnswer = (e: unknown): e is OdemeCartAnswer => (e as { type?: unknown } | null)?.type === "cart"

/** Next.js signals a navigation (the redirect to the order page) with an error of this digest. */
const isRedirect = (e: unknown) =>
  typeof (e as { digest?: unknown })?.digest === "string" && (e as { digest: string }).digest.startsWith("NEXT_REDIRECT")

const isWaiting = (phase: Phase): phase is { name: OdemeWaitPhase } => phase.name !== "failed" && phase.name !== "error"

/**
 * The page the plugin sends the customer back to. Its parameters are only
 * navigation: the page asks the plugin (at most a minute), then completes the
 * cart once through placeOdemeOrder (the starter's `placeOrder`: cart cookie
 * removed, caches revalidated, redirect to /[countryCode]/order/:id/confirmed)
 * when the payment is confirmed, or a transfer made on the payment page exists.
 * Never in a loop: the webhook completes the cart too, and a 409 while it does
 * is waited for and asked once more (completeWhenPaid). While it waits and
 * after, the shopper sees the amount, what happens next and links back to the
 * shop and the cart; when the minute is up without a verdict (a late webhook)
 * the page says so calmly and offers to check again; a refusal with the
 * plugin's code (e.g. `odeme.payment_in_review`) shows that code's text.
 */
const OdemeReturn = ({ status, sessionId, cartId, reason, returnedFromCancel, language }: Props) => {
  const t = odemeStrings[language]
  const failure = odemeReturnFailure({ status, reason, returnedFromCancel })
  const [phase, setPhase] = useState<Phase>(failure ? { name: "failed", failure } : { name: status === "paid" ? "placing" : "checking" })
  const [last, setLast] = useState<LastStatus | null>(null)
  // Each press of "check again" asks the plugin once more (a new wait of at most a minute).
  const [attempt, setAttempt] = useState(0)

  useEffect(() => {
    if (failure) return
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
            setLast(s)
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
        if (result.outcome === "failed") setPhase({ name: "failed", failure: "declined" })
        else if (result.outcome === "confirming") {
          // Not confirmed in time, or the cart answered: a refusal with the plugin's code is shown as
          // that code's text, unless it only asks to wait; otherwise the webhook still places the order.
          // (Only the cart's answer: a status question that kept failing is no refusal.)
          const refusal = isCartAnswer(result.error) ? result.error.code : null
          setPhase(refusal && !WAIT_CODES.includes(refusal) ? errorPhase(result.error) : { name: "confirming" })
        }
        // "order": the browser is on its way to the order page.
      } catch (e) {
        if (controller.signal.aborted || isRedirect(e)) return
        setPhase(errorPhase(e))
      }
    }
    void run()
    return () => controller.abort()
  }, [failure, sessionId, cartId, attempt])

  const wait = isWaiting(phase) ? odemeWaitingText(phase.name, language, { storeSendsEmail: ODEME_STORE_SENDS_EMAIL }) : null
  const amount = last?.amount && last.currency ? formatOdemeAmount(last.amount, last.currency, language) : null
  // No order on this page yet (it moves to the order's page once there is one): the helper decides what may be shown.
  const reference = odemeShopperReference({ status: last }, language)

  return (
    <div className="flex flex-col gap-y-4 max-w-xl" data-testid="odeme-return" data-phase={phase.name}>
      <Heading level="h1" className="text-3xl-regular">
        {t.returnTitle}
      </Heading>
      {wait && (
        <>
          <Text className="txt-medium text-ui-fg-base" role="status" data-testid="odeme-wait-title">
            {wait.title}
          </Text>
          {/* No label without its value: the amount once the plugin said it, the reference once there is one. */}
          {(amount || reference) && (
            <dl className="grid grid-cols-[max-content_1fr] gap-x-8 gap-y-2 txt-medium">
              {amount && (
                <>
                  <dt className="text-ui-fg-subtle">{wait.amountLabel}</dt>
                  <dd className="text-ui-fg-base" data-testid="odeme-wait-amount">
                    {amount}
                  </dd>
                </>
              )}
              {reference && (
                <>
                  <dt className="text-ui-fg-subtle">{reference.label}</dt>
                  <dd className="text-ui-fg-base" data-testid="odeme-wait-reference">
                    {reference.value}
                  </dd>
                </>
              )}
            </dl>
          )}
          <ul className="list-disc pl-5 txt-medium text-ui-fg-subtle" data-testid="odeme-wait-next">
            {wait.next.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
          <div className="flex flex-wrap items-center gap-4">
            {phase.name === "confirming" && (
              <Button
                variant="primary"
                onClick={() => {
                  setPhase({ name: "checking" })
                  setAttempt((n) => n + 1)
                }}
                data-testid="odeme-check-again"
              >
                {wait.checkAgain}
              </Button>
            )}
            <LocalizedClientLink href="/cart" className="txt-medium text-ui-fg-interactive hover:text-ui-fg-interactive-hover">
              {wait.backToCart}
            </LocalizedClientLink>
            <LocalizedClientLink href="/store" className="txt-medium text-ui-fg-interactive hover:text-ui-fg-interactive-hover">
              {wait.backToShop}
            </LocalizedClientLink>
          </div>
        </>
      )}
      {phase.name === "failed" && (
        <Text className="txt-medium text-ui-fg-base" role="alert" data-testid="odeme-failure-reason">
          {odemeFailureMessage(phase.failure, language)}
        </Text>
      )}
      {phase.name === "error" && <ErrorMessage error={odemeErrorMessage(phase.error, language, t.orderFailed)} data-testid="odeme-return-error" />}
      {(phase.name === "failed" || (phase.name === "error" && phase.payAgain)) && (
        <LocalizedClientLink href="/checkout?step=payment" className="txt-medium text-ui-fg-interactive hover:text-ui-fg-interactive-hover">
          {t.backToPayment}
        </LocalizedClientLink>
      )}
    </div>
  )
}

export default OdemeReturn
