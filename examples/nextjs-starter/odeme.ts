/**
 * Storefront calls for medusa-payment-odeme, written against @medusajs/js-sdk.
 * Copy into the Next.js starter as `src/lib/data/odeme.ts`.
 */
import type Medusa from "@medusajs/js-sdk"
import type { HttpTypes } from "@medusajs/types"

export const ODEME_CHECKOUT = "pp_odeme-checkout_odeme"
export const ODEME_TRANSFER = "pp_odeme-transfer_odeme"

export interface SignedForm {
  action: string
  method: "POST"
  fields: Record<string, string>
}

export interface BankAccount {
  bank_id: number
  bank_name: string
  account_holder: string
  iban: string
  iban_display: string
  description: string
}

export interface SessionStatus {
  id: string
  status: "paid" | "pending" | "failed"
  state: string
  amount: string | null
  currency: string | null
  bank_name: string | null
  account_holder: string | null
  iban_display: string | null
  tracking_no: string | null
  reference: string
}

/** Quick Checkout: create the session (its data holds a signed form, but sign again right before paying). */
export async function startQuickCheckout(sdk: Medusa, cart: HttpTypes.StoreCart, returnUrl?: string) {
  const { payment_collection } = await sdk.store.payment.initiatePaymentSession(cart, {
    provider_id: ODEME_CHECKOUT,
    data: returnUrl ? { return_url: returnUrl } : {},
  })
  const session = payment_collection.payment_sessions?.find((s) => s.provider_id === ODEME_CHECKOUT)
  if (!session) throw new Error("No Quick Checkout session was created")
  return session
}

/** A freshly signed form (the service refuses signatures older than 30 minutes). */
export async function freshForm(sdk: Medusa, sessionId: string, cartId: string): Promise<SignedForm> {
  const { form } = await sdk.client.fetch<{ form: SignedForm }>(`/store/odeme/payment-sessions/${sessionId}/form`, {
    method: "POST",
    body: { cart_id: cartId },
  })
  return form
}

/** Posts the signed form the way a browser does: the customer leaves for the service's page. */
export function submitSignedForm(form: SignedForm): void {
  const el = document.createElement("form")
  el.method = form.method
  el.action = form.action
  for (const [name, value] of Object.entries(form.fields)) {
    const input = document.createElement("input")
    input.type = "hidden"
    input.name = name
    input.value = value
    el.appendChild(input)
  }
  document.body.appendChild(el)
  el.submit()
}

export async function listBanks(sdk: Medusa): Promise<BankAccount[]> {
  const { bank_groups } = await sdk.client.fetch<{ bank_groups: { accounts: BankAccount[] }[] }>("/store/odeme/banks")
  return bank_groups.flatMap((g) => g.accounts)
}

/** Bank transfer: the session carries the chosen account and the payer's name; completing the cart creates the transfer. */
export async function startTransfer(sdk: Medusa, cart: HttpTypes.StoreCart, bankId: number, payerName: string) {
  const { payment_collection } = await sdk.store.payment.initiatePaymentSession(cart, {
    provider_id: ODEME_TRANSFER,
    data: { bank_id: bankId, customer_name: payerName },
  })
  return payment_collection.payment_sessions?.find((s) => s.provider_id === ODEME_TRANSFER)
}

export async function sessionStatus(sdk: Medusa, sessionId: string, cartId: string): Promise<SessionStatus> {
  const { payment_session } = await sdk.client.fetch<{ payment_session: SessionStatus }>(
    `/store/odeme/payment-sessions/${sessionId}?cart_id=${encodeURIComponent(cartId)}`
  )
  return payment_session
}

/**
 * Completes the cart the way a payment that is confirmed in the background
 * needs: the webhook may already have created the order (the same order is
 * returned), a concurrent completion answers 409 (wait and retry), and
 * `{ type: "cart", error }` means "not confirmed yet" (poll and retry).
 */
export async function completeWhenConfirmed(
  sdk: Medusa,
  cartId: string,
  sessionId: string,
  opts: { timeoutMs?: number; onPending?: () => void } = {}
): Promise<HttpTypes.StoreOrder> {
  const deadline = Date.now() + (opts.timeoutMs ?? 120_000)
  for (;;) {
    try {
      const res = await sdk.store.cart.complete(cartId)
      if (res.type === "order") return res.order
      const status = await sessionStatus(sdk, sessionId, cartId)
      if (status.status === "failed") throw new Error(res.error?.message ?? "The payment failed")
      opts.onPending?.()
    } catch (e) {
      const status = (e as { status?: number }).status
      if (status !== 409) throw e
    }
    if (Date.now() > deadline) throw new Error("The payment is still being confirmed; the order will appear when it is.")
    await new Promise((r) => setTimeout(r, 2000))
  }
}
