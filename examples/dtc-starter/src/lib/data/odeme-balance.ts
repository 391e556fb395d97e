"use server"

import { sdk } from "@lib/config"
import { getAuthHeaders } from "@lib/data/cookies"
import { getOdemeLanguage } from "@lib/data/odeme"
import { odemeBalanceStrings } from "@lib/odeme/balance-strings"
import { HttpTypes } from "@medusajs/types"
import {
  ODEME_CHECKOUT_PROVIDER_ID,
  ODEME_TRANSFER_PROVIDER_ID,
  odemeErrorCode,
  odemeErrorMessage,
  parseBalanceAuthorizeResponse,
  parsePaymentSessionStatusResponse,
  parseQuickCheckoutFormResponse,
  type OdemePaymentSessionStatus,
  type OdemeQuickCheckoutForm,
} from "medusa-payment-odeme/storefront"

/**
 * Server actions of the balance page: Admin's "Copy payment link" gives
 * `/payment-collection/{id}?order_id={order}` when an edited order owes
 * money. The collection with its order is the proof the plugin's routes
 * ask for (there is no cart). Failures come back as a result, in the
 * customer's language (never the server's English).
 */
export type BalanceResult<T> = { ok: true; value: T } | { ok: false; message: string }

export type OdemeBalance = {
  orderId: string
  displayId: number | string
  currency: string
  orderTotal: number
  amount: number
  /** Medusa's payment collection status: completed (paid), not_paid, awaiting, … */
  status: string
}

type Proof = { payment_collection_id: string; order_id: string }

async function failure(e: unknown): Promise<{ ok: false; message: string }> {
  const language = await getOdemeLanguage()
  // A coded error has a text in both languages; anything else is not shown raw (it is English).
  return { ok: false, message: odemeErrorCode(e) ? odemeErrorMessage(e, language) : odemeBalanceStrings[language].failed }
}

const options = async () => ({ headers: { ...(await getAuthHeaders()) }, cache: "no-store" as const })

/** What the order still owes on this collection, or null for a link that is not one. */
export async function retrieveOdemeBalance(collectionId: string, orderId: string): Promise<OdemeBalance | null> {
  const { order } = await sdk.client
    .fetch<{ order: HttpTypes.StoreOrder }>(`/store/orders/${encodeURIComponent(orderId)}`, {
      method: "GET",
      query: { fields: "id,display_id,currency_code,total,*payment_collections" },
      ...(await options()),
    })
    .catch(() => ({ order: null }))
  const collection = order?.payment_collections?.find((pc) => pc.id === collectionId)
  if (!order || !collection) return null
  return {
    orderId: order.id,
    displayId: order.display_id ?? "",
    currency: order.currency_code,
    orderTotal: Number(order.total),
    amount: Number(collection.amount),
    status: collection.status,
  }
}

async function createSession(collectionId: string, providerId: string, data?: Record<string, unknown>) {
  const { payment_collection } = await sdk.client.fetch<{ payment_collection: HttpTypes.StorePaymentCollection }>(
    `/store/payment-collections/${encodeURIComponent(collectionId)}/payment-sessions`,
    { method: "POST", body: { provider_id: providerId, ...(data ? { data } : {}) }, ...(await options()) }
  )
  const session = payment_collection.payment_sessions?.find((s) => s.provider_id === providerId)
  if (!session) throw new Error("no payment session")
  return session
}

/**
 * Quick Checkout: a session on the collection and its freshly signed form, to post right away.
 * `returnUrl` is this page: without it the plugin sends the customer back to its `storefrontUrl`,
 * which is another site when this storefront is only one of `storefrontOrigins`.
 */
export async function startOdemeBalanceCheckout(proof: Proof, returnUrl: string): Promise<BalanceResult<OdemeQuickCheckoutForm>> {
  try {
    const session = await createSession(proof.payment_collection_id, ODEME_CHECKOUT_PROVIDER_ID, { return_url: returnUrl })
    const json = await sdk.client.fetch<unknown>(`/store/odeme/payment-sessions/${encodeURIComponent(session.id)}/form`, {
      method: "POST",
      body: proof,
      ...(await options()),
    })
    return { ok: true, value: parseQuickCheckoutFormResponse(json).form }
  } catch (e) {
    return failure(e)
  }
}

/** Bank transfer: a session with the chosen account and payer, started at the service (no cart to complete). */
export async function startOdemeBalanceTransfer(proof: Proof, transfer: { bank_id: number; customer_name: string }): Promise<BalanceResult<string>> {
  try {
    const session = await createSession(proof.payment_collection_id, ODEME_TRANSFER_PROVIDER_ID, transfer)
    const json = await sdk.client.fetch<unknown>(`/store/odeme/payment-sessions/${encodeURIComponent(session.id)}/authorize`, {
      method: "POST",
      body: proof,
      ...(await options()),
    })
    return { ok: true, value: parseBalanceAuthorizeResponse(json).payment_session.id }
  } catch (e) {
    return failure(e)
  }
}

/** What the plugin knows of the balance's payment (the IBAN while a transfer waits). */
export async function retrieveOdemeBalanceStatus(sessionId: string, proof: Proof): Promise<BalanceResult<OdemePaymentSessionStatus>> {
  try {
    const json = await sdk.client.fetch<unknown>(`/store/odeme/payment-sessions/${encodeURIComponent(sessionId)}`, {
      method: "GET",
      query: proof,
      ...(await options()),
    })
    return { ok: true, value: parsePaymentSessionStatusResponse(json).payment_session }
  } catch (e) {
    return failure(e)
  }
}
