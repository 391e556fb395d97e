"use server"

import { sdk } from "@lib/config"
import { HttpTypes } from "@medusajs/types"
import {
  isOdemeTransfer,
  odemeErrorCode,
  odemeLanguage,
  parseBanksResponse,
  parsePaymentSessionStatusResponse,
  parseQuickCheckoutFormResponse,
  parseTransferSessionData,
  type OdemeBankAccount,
  type OdemeErrorCode,
  type OdemeLanguage,
  type OdemePaymentSessionStatus,
  type OdemeQuickCheckoutForm,
  type OdemeTransferSessionData,
} from "medusa-payment-odeme/storefront"
import { ODEME_DEFAULT_LANGUAGE, acceptLanguageTags, browserOdemeLanguage } from "@lib/odeme/strings"
import { getAuthHeaders, getCacheTag, getCartId, removeCartId } from "@lib/data/cookies"
import { headers as requestHeaders } from "next/headers"
import { revalidateTag } from "next/cache"
import { redirect } from "next/navigation"
import { getLocale } from "@lib/data/locale-actions"

/**
 * Server actions for the plugin's store routes, beside the starter's own
 * data layer: the browser never calls Medusa directly. They answer with a
 * result instead of throwing because Next.js hides a server action's error
 * message in production builds, and the customer should read why.
 */
export type OdemeResult<T> = { ok: true; value: T } | { ok: false; message: string; code: OdemeErrorCode | null }

/** `code` is the plugin's stable error code: the page shows its Turkish or English text (odemeErrorMessage). */
const failure = (e: unknown): { ok: false; message: string; code: OdemeErrorCode | null } => ({
  ok: false,
  message: e instanceof Error && e.message ? e.message : String(e),
  code: odemeErrorCode(e),
})

/**
 * The customer's language: the starter's locale cookie, else the browser's
 * Accept-Language (Turkish when it prefers Turkish to English), else the store default.
 */
export async function getOdemeLanguage(): Promise<OdemeLanguage> {
  const locale = await getLocale()
  if (locale) return odemeLanguage(locale, ODEME_DEFAULT_LANGUAGE)
  try {
    return browserOdemeLanguage(acceptLanguageTags((await requestHeaders()).get("accept-language")))
  } catch {
    return ODEME_DEFAULT_LANGUAGE // outside a request (e.g. a static render)
  }
}

/** The merchant's accounts a transfer can go to (GET /store/odeme/banks). */
export async function listOdemeBanks(): Promise<OdemeResult<OdemeBankAccount[]>> {
  try {
    const json = await sdk.client.fetch<unknown>("/store/odeme/banks", {
      method: "GET",
      headers: { ...(await getAuthHeaders()) },
      cache: "no-store",
    })
    return { ok: true, value: parseBanksResponse(json).bank_groups.flatMap((g) => g.accounts) }
  } catch (e) {
    return failure(e)
  }
}

/**
 * The starter's `initiatePaymentSession` for an Odeme provider, with its failure as a
 * result: thrown, Next.js would show the shopper "An error occurred in the Server
 * Components render" in English; answered, the payment step shows the code's text
 * (e.g. `odeme.return_url_not_allowed` when the storefront's origin is not one of the
 * plugin's `storefrontUrl` / `storefrontOrigins`).
 */
export async function startOdemePaymentSession(
  cart: HttpTypes.StoreCart,
  providerId: string,
  data: Record<string, unknown> | undefined
): Promise<OdemeResult<null>> {
  try {
    // As the starter's initiatePaymentSession, plus the shopper's address: this server creates the
    // session, so without it the payment service would be told this server's address for every
    // shopper (spec §4.5 client_ip). The plugin believes it only from `trustedStorefrontAddresses`.
    const headers = { ...(await getAuthHeaders()), ...(await shopperAddressHeader()) }
    await sdk.store.payment.initiatePaymentSession(cart, { provider_id: providerId, data }, {}, headers)
    revalidateTag(await getCacheTag("carts"))
    return { ok: true, value: null }
  } catch (e) {
    return failure(e)
  }
}

/**
 * Medusa answered the cart instead of an order (`{ type: "cart", error }`): the payment was not
 * authorized. `code` is the plugin's code when the refusal is its own (e.g. `odeme.creation_unknown`,
 * `odeme.payment_in_review`, `odeme.service_unavailable`, `odeme.already_paid`): the page shows its
 * Turkish or English text (odemeErrorMessage). `message` is Medusa's own, English.
 */
export type OdemeCartAnswer = { type: "cart"; message: string | null; code: OdemeErrorCode | null }

/**
 * Completes the cart like the starter's `placeOrder`, which it replaces because `placeOrder`
 * returns only the cart and drops Medusa's `error`, the one place a completion refused in payment
 * authorization says why. On an order it does what `placeOrder` does: caches revalidated, cart
 * cookie removed, redirect to /[countryCode]/order/:id/confirmed (that redirect passes through,
 * thrown). The cart answer comes back with its error's message and code (OdemeCartAnswer); a
 * thrown failure (Medusa's 409 while the plugin's webhook completes the same cart, a network
 * error) as a failure with its message and code.
 */
export async function placeOdemeOrder(cartId: string | null): Promise<OdemeResult<OdemeCartAnswer>> {
  let completed: HttpTypes.StoreCompleteCartResponse
  try {
    const id = cartId ?? (await getCartId())
    if (!id) return { ok: false, message: "No existing cart found when placing an order", code: null }
    completed = await sdk.store.cart.complete(id, {}, { ...(await getAuthHeaders()) })
    revalidateTag(await getCacheTag("carts"))
  } catch (e) {
    return failure(e)
  }
  if (completed.type === "order") {
    const countryCode = completed.order.shipping_address?.country_code?.toLowerCase()
    revalidateTag(await getCacheTag("orders"))
    await removeCartId()
    redirect(`/${countryCode}/order/${completed.order.id}/confirmed`)
  }
  return { ok: true, value: { type: "cart", message: completed.error?.message || null, code: odemeErrorCode(completed.error) } }
}

/** A freshly signed Quick Checkout form: signed now, so never older than the service's 30 minutes. */
export async function getOdemeCheckoutForm(sessionId: string, cartId: string): Promise<OdemeResult<OdemeQuickCheckoutForm>> {
  try {
    const json = await sdk.client.fetch<unknown>(`/store/odeme/payment-sessions/${encodeURIComponent(sessionId)}/form`, {
      method: "POST",
      body: { cart_id: cartId },
      headers: { ...(await getAuthHeaders()) },
      cache: "no-store",
    })
    return { ok: true, value: parseQuickCheckoutFormResponse(json).form }
  } catch (e) {
    return failure(e)
  }
}

/**
 * What the plugin knows of a payment, for the waiting page. Only the cart
 * that owns the session may ask: `cartId` when the caller has one, else this
 * browser's cart cookie (the return redirect carries no cart id).
 */
export async function retrieveOdemePaymentStatus(sessionId: string, cartId: string | null): Promise<OdemeResult<OdemePaymentSessionStatus>> {
  try {
    cartId ??= (await getCartId()) ?? null
    if (!cartId) return { ok: false, message: "No cart for this payment", code: "odeme.session_unknown" }
    const json = await sdk.client.fetch<unknown>(`/store/odeme/payment-sessions/${encodeURIComponent(sessionId)}`, {
      method: "GET",
      query: { cart_id: cartId },
      headers: { ...(await getAuthHeaders()) },
      cache: "no-store",
    })
    return { ok: true, value: parsePaymentSessionStatusResponse(json).payment_session }
  } catch (e) {
    return failure(e)
  }
}

/**
 * `closed`: the order was canceled or the transfer's deadline passed. The session's data is what the plugin
 * wrote when the transfer was created: it still says `awaiting_transfer` after the plugin expired the transfer
 * or the shop canceled the order, and the customer must not be asked to send money nobody will take.
 */
export type OdemeTransferDetails = { sessionStatus: string; data: OdemeTransferSessionData; closed: boolean }

/**
 * The bank transfer of an order (IBAN, bank, tracking number) from its
 * payment session's data, or null when the order was not paid by transfer.
 * Read fresh: the page shows whether the money has arrived.
 */
export async function retrieveOdemeTransferDetails(orderId: string): Promise<OdemeTransferDetails | null> {
  const { order } = await sdk.client
    .fetch<{ order: HttpTypes.StoreOrder }>(`/store/orders/${encodeURIComponent(orderId)}`, {
      method: "GET",
      query: { fields: "id,status,*payment_collections.payment_sessions" },
      headers: { ...(await getAuthHeaders()) },
      cache: "no-store",
    })
    .catch(() => ({ order: null }))
  const sessions = (order?.payment_collections ?? []).flatMap((c) => c.payment_sessions ?? [])
  const session =
    sessions.find((s) => isOdemeTransfer(s.provider_id) && s.status !== "canceled" && s.status !== "error") ??
    sessions.find((s) => isOdemeTransfer(s.provider_id))
  const data = session ? parseTransferSessionData(session.data) : null
  if (!session || !data) return null
  const pastDeadline = !!data.expires_at && Date.parse(data.expires_at) <= Date.now()
  return { sessionStatus: session.status, data, closed: order?.status === "canceled" || pastDeadline }
}

/**
 * The shopper's address as the proxy in front of Next.js saw it, for the plugin's
 * `x-odeme-client-ip`: X-Real-IP (set by the platform), else the right-most X-Forwarded-For hop
 * (the one that proxy appended; the hops before it are the shopper's own words).
 */
async function shopperAddressHeader(): Promise<Record<string, string>> {
  const h = await requestHeaders()
  const hops = (h.get("x-forwarded-for") ?? "")
    .split(",")
    .map((x) => x.trim())
    .filter(Boolean)
  const ip = h.get("x-real-ip")?.trim() || hops[hops.length - 1] || ""
  return ip ? { "x-odeme-client-ip": ip } : {}
}
