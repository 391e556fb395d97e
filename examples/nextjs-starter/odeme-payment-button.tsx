"use client"
/**
 * Drop-in for the Next.js starter's payment step
 * (`src/modules/checkout/components/payment-button/index.tsx`): render
 * <OdemePaymentButton cart={cart} /> when the selected provider starts with
 * "pp_odeme-". Add the return page below at `/[countryCode]/checkout/return`
 * and set the plugin option `checkout.returnPath` (or the session's
 * `return_url`) to it.
 */
import { useEffect, useState } from "react"
import type { HttpTypes } from "@medusajs/types"
import { sdk } from "./config"
import {
  completeWhenConfirmed,
  freshForm,
  listBanks,
  ODEME_CHECKOUT,
  ODEME_TRANSFER,
  sessionStatus,
  startQuickCheckout,
  startTransfer,
  submitSignedForm,
  type BankAccount,
  type SessionStatus,
} from "./odeme"

export function OdemePaymentButton({ cart, providerId }: { cart: HttpTypes.StoreCart; providerId: string }) {
  if (providerId === ODEME_CHECKOUT) return <QuickCheckoutButton cart={cart} />
  if (providerId === ODEME_TRANSFER) return <BankTransferForm cart={cart} />
  return null
}

function QuickCheckoutButton({ cart }: { cart: HttpTypes.StoreCart }) {
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const pay = async () => {
    setBusy(true)
    setError(null)
    try {
      const session = await startQuickCheckout(sdk, cart, `${window.location.origin}/checkout/return`)
      submitSignedForm(await freshForm(sdk, session.id, cart.id))
    } catch (e) {
      setError((e as Error).message)
      setBusy(false)
    }
  }
  return (
    <div>
      <button onClick={pay} disabled={busy} data-testid="odeme-pay">
        {busy ? "Redirecting…" : "Pay by card or transfer"}
      </button>
      {error && <p role="alert">{error}</p>}
    </div>
  )
}

function BankTransferForm({ cart }: { cart: HttpTypes.StoreCart }) {
  const [banks, setBanks] = useState<BankAccount[]>([])
  const [bankId, setBankId] = useState<number | null>(null)
  const [name, setName] = useState("")
  const [error, setError] = useState<string | null>(null)
  const [waiting, setWaiting] = useState<{ sessionId: string; status?: SessionStatus; orderId?: string } | null>(null)

  useEffect(() => {
    listBanks(sdk).then(setBanks, (e: Error) => setError(e.message))
  }, [])

  useEffect(() => {
    if (!waiting || waiting.status?.status === "paid") return
    const t = setInterval(async () => {
      const status = await sessionStatus(sdk, waiting.sessionId, cart.id)
      setWaiting((w) => (w ? { ...w, status } : w))
    }, 3000)
    return () => clearInterval(t)
  }, [waiting, cart.id])

  const submit = async () => {
    if (bankId === null || name.trim().length < 3) return setError("Choose a bank account and enter the payer's full name.")
    setError(null)
    try {
      const session = await startTransfer(sdk, cart, bankId, name.trim())
      if (!session) throw new Error("No bank transfer session was created")
      // The order is placed with payment "awaiting"; the IBAN is shown until the transfer arrives.
      const order = await completeWhenConfirmed(sdk, cart.id, session.id, { timeoutMs: 30_000 })
      setWaiting({ sessionId: session.id, orderId: order.id, status: await sessionStatus(sdk, session.id, cart.id) })
    } catch (e) {
      setError((e as Error).message)
    }
  }

  if (waiting?.status) {
    const s = waiting.status
    return (
      <div data-testid="odeme-transfer-waiting" data-status={s.status}>
        <p>{s.status === "paid" ? "Payment received. Thank you!" : "Please transfer the amount to:"}</p>
        <dl>
          <dt>Bank</dt>
          <dd>{s.bank_name}</dd>
          <dt>Account holder</dt>
          <dd>{s.account_holder}</dd>
          <dt>IBAN</dt>
          <dd>{s.iban_display}</dd>
          <dt>Amount</dt>
          <dd>
            {s.amount} {s.currency}
          </dd>
          <dt>Reference</dt>
          <dd>{s.reference}</dd>
        </dl>
      </div>
    )
  }
  return (
    <div>
      {banks.map((b) => (
        <label key={b.bank_id}>
          <input type="radio" name="bank" checked={bankId === b.bank_id} onChange={() => setBankId(b.bank_id)} />
          {b.bank_name} — {b.iban_display}
        </label>
      ))}
      <input value={name} onChange={(e) => setName(e.target.value)} placeholder="Payer's full name" />
      <button onClick={submit}>Place order and show the IBAN</button>
      {error && <p role="alert">{error}</p>}
    </div>
  )
}

/** `/[countryCode]/checkout/return`: where the plugin sends the customer back. */
export function OdemeReturnPage({ search }: { search: URLSearchParams }) {
  const [text, setText] = useState("Confirming your payment…")
  useEffect(() => {
    const status = search.get("status")
    const sessionId = search.get("session_id")
    const cartId = search.get("cart_id")
    if (!sessionId || !cartId || status === "failed") {
      setText("The payment did not go through. Please choose a payment method again.")
      return
    }
    completeWhenConfirmed(sdk, cartId, sessionId, { onPending: () => setText("Confirming your payment…") }).then(
      (order) => window.location.assign(`/order/${order.id}/confirmed`),
      (e: Error) => setText(e.message)
    )
  }, [search])
  return <p data-testid="odeme-return">{text}</p>
}
