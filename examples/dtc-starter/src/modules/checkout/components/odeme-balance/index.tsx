"use client"

import {
  retrieveOdemeBalanceStatus,
  startOdemeBalanceCheckout,
  startOdemeBalanceTransfer,
  type OdemeBalance as Balance,
} from "@lib/data/odeme-balance"
import { formatBalanceAmount, odemeBalanceStrings } from "@lib/odeme/balance-strings"
import { formatOdemeDeadline } from "@lib/odeme/strings"
import ErrorMessage from "@modules/checkout/components/error-message"
import { Button, Heading, Text } from "@modules/common/components/ui"
import {
  odemeNotCompletedMessage,
  odemeReasonMessage,
  submitQuickCheckoutForm,
  waitForPayment,
  type OdemeBankAccount,
  type OdemeFailureReason,
  type OdemeLanguage,
  type OdemePaymentSessionStatus,
  type OdemeStorefrontStatus,
} from "medusa-payment-odeme/storefront"
import { useEffect, useState } from "react"

type Props = {
  collectionId: string
  balance: Balance
  banks: OdemeBankAccount[]
  /** Set when the plugin's return route sent the customer back here. */
  returned: { status: OdemeStorefrontStatus; sessionId: string; reason: OdemeFailureReason | null; returnedFromCancel: boolean } | null
  language: OdemeLanguage
}

type Phase =
  | { name: "choose"; error?: string }
  | { name: "redirecting" }
  | { name: "waiting"; sessionId: string; transfer?: OdemePaymentSessionStatus }
  | { name: "paid" }

/**
 * What an edited order still owes, paid with Quick Checkout (the service's
 * page, back through the plugin's return route) or a bank transfer (the IBAN
 * shown here until the service confirms it). Either way the payment is
 * captured onto the same order; this page only shows and waits.
 */
const OdemeBalance = ({ collectionId, balance, banks, returned, language }: Props) => {
  const t = odemeBalanceStrings[language]
  const proof = { payment_collection_id: collectionId, order_id: balance.orderId }
  const money = (amount: number | string) => formatBalanceAmount(amount, balance.currency, language)
  const [phase, setPhase] = useState<Phase>(() => {
    if (balance.status === "completed") return { name: "paid" }
    if (returned?.status === "failed") return { name: "choose", error: odemeReasonMessage(returned.reason, language) }
    // Back through the cancel address with nothing confirmed: canceled or declined on the service's page
    // (it sends both there), not paid there; a neutral text, and an offer to pay again.
    if (returned?.returnedFromCancel) return { name: "choose", error: odemeNotCompletedMessage(language) }
    if (returned) return { name: "waiting", sessionId: returned.sessionId }
    return { name: "choose" }
  })
  const [method, setMethod] = useState<"checkout" | "transfer">("checkout")
  const [bankId, setBankId] = useState<number | null>(banks[0]?.bank_id ?? null)
  const [payer, setPayer] = useState("")
  const [copied, setCopied] = useState(false)

  const waitingSession = phase.name === "waiting" ? phase.sessionId : null
  useEffect(() => {
    if (!waitingSession) return
    const controller = new AbortController()
    void waitForPayment({
      fetchStatus: async () => {
        const result = await retrieveOdemeBalanceStatus(waitingSession, proof)
        if (!result.ok) throw new Error(result.message)
        // A transfer waits for the customer's money: show where to send it meanwhile.
        if (result.value.flow === "transfer_api") setPhase({ name: "waiting", sessionId: waitingSession, transfer: result.value })
        return result.value
      },
      intervalMs: 3_000,
      timeoutMs: 24 * 60 * 60_000,
      signal: controller.signal,
    })
      .then((waited) => {
        if (waited.outcome === "paid") setPhase({ name: "paid" })
        else if (waited.outcome === "failed") setPhase({ name: "choose", error: t.failed })
      })
      .catch(() => {})
    return () => controller.abort()
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [waitingSession])

  const pay = async () => {
    if (method === "checkout") {
      setPhase({ name: "redirecting" })
      // Back to this very page (country prefix included); the plugin adds status and session_id.
      const back = `${window.location.origin}${window.location.pathname}?order_id=${encodeURIComponent(proof.order_id)}`
      const result = await startOdemeBalanceCheckout(proof, back)
      if (!result.ok) return setPhase({ name: "choose", error: result.message })
      return void submitQuickCheckoutForm(result.value)
    }
    if (payer.trim().split(/\s+/).length < 2) return setPhase({ name: "choose", error: t.payerNameTooShort })
    if (bankId === null) return setPhase({ name: "choose", error: t.chooseBank })
    const result = await startOdemeBalanceTransfer(proof, { bank_id: bankId, customer_name: payer.trim() })
    if (!result.ok) return setPhase({ name: "choose", error: result.message })
    setPhase({ name: "waiting", sessionId: result.value })
  }

  const transfer = phase.name === "waiting" ? phase.transfer : undefined
  return (
    <div className="flex flex-col gap-y-4 max-w-xl" data-testid="odeme-balance" data-phase={phase.name}>
      <Heading level="h1" className="text-3xl-regular">
        {t.title}
      </Heading>
      <Text className="txt-medium text-ui-fg-subtle">{t.intro}</Text>
      <dl className="grid grid-cols-2 gap-y-1 txt-medium">
        <dt>{t.order}</dt>
        <dd data-testid="odeme-balance-order">#{balance.displayId}</dd>
        <dt>{t.due}</dt>
        <dd data-testid="odeme-balance-amount">{money(balance.amount)}</dd>
        <dt>{t.orderTotal}</dt>
        <dd>{money(balance.orderTotal)}</dd>
      </dl>

      {phase.name === "paid" && (
        <Text className="txt-medium text-ui-fg-base" role="status" data-testid="odeme-balance-paid">
          {t.paid}
        </Text>
      )}
      {phase.name === "redirecting" && <Text role="status">{t.redirecting}</Text>}
      {phase.name === "waiting" && !transfer && <Text role="status">{t.confirming}</Text>}
      {transfer && (
        <div className="flex flex-col gap-y-2" data-testid="odeme-balance-transfer">
          <Text className="txt-medium">{t.transferWaiting}</Text>
          <dl className="grid grid-cols-2 gap-y-1 txt-medium">
            <dt>{t.bank}</dt>
            <dd>{transfer.bank_name}</dd>
            <dt>{t.accountHolder}</dt>
            <dd>{transfer.account_holder}</dd>
            <dt>{t.iban}</dt>
            <dd className="flex gap-x-2">
              <code data-testid="odeme-balance-iban">{transfer.iban_display ?? transfer.iban}</code>
              <button
                type="button"
                className="text-ui-fg-interactive"
                onClick={() => void navigator.clipboard?.writeText(transfer.iban ?? "").then(() => setCopied(true))}
              >
                {copied ? t.copied : t.copy}
              </button>
            </dd>
            <dt>{t.amount}</dt>
            <dd>{transfer.amount ? money(transfer.amount) : money(balance.amount)}</dd>
            <dt>{t.reference}</dt>
            <dd>#{balance.displayId}</dd>
            {transfer.expires_at && (
              <>
                <dt>{t.deadline}</dt>
                <dd data-testid="odeme-balance-deadline">{formatOdemeDeadline(transfer.expires_at, language)}</dd>
              </>
            )}
          </dl>
        </div>
      )}

      {phase.name === "choose" && (
        <div className="flex flex-col gap-y-3">
          <label className="flex gap-x-2 items-center">
            <input type="radio" name="odeme-balance-method" checked={method === "checkout"} onChange={() => setMethod("checkout")} />
            {t.checkout}
          </label>
          <label className="flex gap-x-2 items-center">
            <input
              type="radio"
              name="odeme-balance-method"
              checked={method === "transfer"}
              disabled={banks.length === 0}
              onChange={() => setMethod("transfer")}
            />
            {t.transfer}
          </label>
          {method === "transfer" && (
            <div className="flex flex-col gap-y-2 pl-6">
              <Text>{t.chooseBank}</Text>
              {banks.map((b) => (
                <label key={b.bank_id} className="flex gap-x-2 items-center">
                  <input type="radio" name="odeme-balance-bank" checked={bankId === b.bank_id} onChange={() => setBankId(b.bank_id)} />
                  {b.bank_name} · {b.iban_display}
                </label>
              ))}
              <label className="flex flex-col">
                {t.payerName}
                <input className="border rounded px-2 py-1" value={payer} onChange={(e) => setPayer(e.target.value)} autoComplete="name" />
              </label>
            </div>
          )}
          {phase.error && <ErrorMessage error={phase.error} data-testid="odeme-balance-error" />}
          <Button className="w-fit" onClick={() => void pay()} data-testid="odeme-balance-pay">
            {t.pay} {money(balance.amount)}
          </Button>
        </div>
      )}
    </div>
  )
}

export default OdemeBalance
