"use client"

import { placeOrder } from "@lib/data/cart"
import { retrieveOdemePaymentStatus } from "@lib/data/odeme"
import { odemeStrings } from "@lib/odeme/strings"
import ErrorMessage from "@modules/checkout/components/error-message"
import LocalizedClientLink from "@modules/common/components/localized-client-link"
import { Button, Heading, Text } from "@modules/common/components/ui"
import {
  odemeReasonMessage,
  waitForPayment,
  type OdemeFailureReason,
  type OdemeLanguage,
  type OdemeStorefrontStatus,
} from "medusa-payment-odeme/storefront"
import { useCallback, useEffect, useState } from "react"

type Props = {
  status: OdemeStorefrontStatus
  sessionId: string
  cartId: string | null
  reason: OdemeFailureReason | null
  language: OdemeLanguage
}

type Phase =
  | { name: "confirming" }
  | { name: "placing" }
  | { name: "failed"; reason: OdemeFailureReason | null }
  | { name: "timeout" }
  | { name: "error"; message: string }

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const isRedirect = (e: unknown) =>
  typeof (e as { digest?: unknown })?.digest === "string" && (e as { digest: string }).digest.startsWith("NEXT_REDIRECT")

/**
 * Places the order through the starter's `placeOrder` (cart completion, cart
 * cookie removal, cache revalidation, redirect to
 * /[countryCode]/order/:id/confirmed). The webhook may be completing the same
 * cart at this moment: Medusa then answers 409 or, a moment later, the same
 * order, so a few retries settle it.
 */
async function placeOrderWhenConfirmed(cartId: string | null, signal: AbortSignal): Promise<"not_confirmed" | "redirecting"> {
  for (let attempt = 1; ; attempt++) {
    try {
      const cart = await placeOrder(cartId ?? undefined)
      // A cart back: Medusa could not authorize the payment (not verified yet).
      if (!cart) return "redirecting"
      if (attempt >= 3) return "not_confirmed"
    } catch (e) {
      if (isRedirect(e)) return "redirecting"
      if (attempt >= 4) throw e
    }
    if (signal.aborted) return "redirecting"
    await sleep(1500 * attempt)
  }
}

/**
 * The page the plugin sends the customer back to. Its parameters are only
 * navigation: "paid" leads to placing the order (Medusa checks the payment
 * itself), "pending" waits for the plugin's verdict, "failed" explains why.
 */
const OdemeReturn = ({ status, sessionId, cartId, reason, language }: Props) => {
  const t = odemeStrings[language]
  const [phase, setPhase] = useState<Phase>(
    status === "failed" ? { name: "failed", reason } : status === "paid" ? { name: "placing" } : { name: "confirming" }
  )
  const [round, setRound] = useState(0)

  const run = useCallback(
    async (signal: AbortSignal) => {
      if (status === "failed") return
      try {
        if (status === "pending" || round > 0) {
          setPhase({ name: "confirming" })
          const waited = await waitForPayment({
            fetchStatus: async () => {
              const result = await retrieveOdemePaymentStatus(sessionId, cartId)
              if (!result.ok) throw new Error(result.message)
              return result.value
            },
            intervalMs: 3_000,
            timeoutMs: 90_000,
            signal,
          })
          if (waited.outcome === "failed") return setPhase({ name: "failed", reason: null })
          if (waited.outcome === "timeout") return setPhase({ name: "timeout" })
        }
        setPhase({ name: "placing" })
        const placed = await placeOrderWhenConfirmed(cartId, signal)
        if (placed === "not_confirmed" && !signal.aborted) setPhase({ name: "timeout" })
      } catch (e) {
        if (signal.aborted) return
        setPhase({ name: "error", message: e instanceof Error ? e.message : String(e) })
      }
    },
    [status, sessionId, cartId, round]
  )

  useEffect(() => {
    const controller = new AbortController()
    void run(controller.signal)
    return () => controller.abort()
  }, [run])

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
          {odemeReasonMessage(phase.reason, language)}
        </Text>
      )}
      {phase.name === "timeout" && (
        <>
          <Text className="txt-medium text-ui-fg-base" role="status">
            {t.stillConfirming}
          </Text>
          <Button variant="secondary" className="w-fit" onClick={() => setRound((r) => r + 1)}>
            {t.checkAgain}
          </Button>
        </>
      )}
      {phase.name === "error" && <ErrorMessage error={`${t.orderFailed}: ${phase.message}`} data-testid="odeme-return-error" />}
      {(phase.name === "failed" || phase.name === "error") && (
        <LocalizedClientLink href="/checkout?step=payment" className="txt-medium text-ui-fg-interactive hover:text-ui-fg-interactive-hover">
          {t.backToPayment}
        </LocalizedClientLink>
      )}
    </div>
  )
}

export default OdemeReturn
