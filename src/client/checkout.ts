import { formatAmount, type AmountInput } from "./amount"
import { rfc3986Encode, signQuickCheckout } from "./signature"

/** Currencies accepted by Quick Checkout (spec §4.2). */
export const QUICK_CHECKOUT_CURRENCIES = ["TRY", "USD", "EUR", "GBP"] as const

/**
 * Validates a base URL and returns it without trailing slashes, query or
 * fragment. A path prefix (e.g. "https://host/odeme") is kept.
 */
export function normalizeBaseUrl(baseUrl: string): string {
  if (typeof baseUrl !== "string" || baseUrl.trim() === "") {
    throw new TypeError("Odeme baseUrl is required")
  }
  let url: URL
  try {
    url = new URL(baseUrl.trim())
  } catch {
    throw new TypeError("Odeme baseUrl is not a valid URL")
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new TypeError("Odeme baseUrl must use http or https")
  }
  if (url.search || url.hash) {
    throw new TypeError("Odeme baseUrl must not contain a query or fragment")
  }
  const path = url.pathname.replace(/\/+$/, "")
  return `${url.origin}${path}`
}

/**
 * Hosted Checkout address (spec §4.1): `{base}/checkout/{slug}/{id}` with
 * `success_url` / `cancel_url` as query parameters (never as form fields).
 */
export function hostedCheckoutUrl(baseUrl: string, slug: string, id: number, urls: { successUrl?: string; cancelUrl?: string } = {}): string {
  if (typeof slug !== "string" || slug.trim() === "") throw new TypeError("Hosted Checkout slug is required")
  if (slug === "." || slug === "..") throw new TypeError("Hosted Checkout slug is not valid")
  if (typeof id !== "number" || !Number.isSafeInteger(id) || id <= 0) {
    throw new TypeError("Hosted Checkout product id must be a positive integer")
  }
  const base = normalizeBaseUrl(baseUrl)
  const query: string[] = []
  if (urls.successUrl) query.push(`success_url=${rfc3986Encode(urls.successUrl)}`)
  if (urls.cancelUrl) query.push(`cancel_url=${rfc3986Encode(urls.cancelUrl)}`)
  return `${base}/checkout/${rfc3986Encode(slug)}/${id}${query.length ? `?${query.join("&")}` : ""}`
}

export interface QuickCheckoutFormInput {
  baseUrl: string
  apiId: number | string
  /** Secret API key, used only to sign; it is never part of the result. */
  apiKey: string
  amount: AmountInput
  currency: string
  orderId: string
  /** Must be non-empty: the spec does not say how an omitted description is signed (§5.2 rule 5). */
  description: string
  successUrl: string
  cancelUrl: string
  /** Unix seconds; default now. */
  ts?: number
}

export type QuickCheckoutFieldName = "api_id" | "amount" | "currency" | "description" | "order_id" | "success_url" | "cancel_url" | "ts" | "signature"

export interface QuickCheckoutForm {
  /** `{baseUrl}/checkout/quick` */
  action: string
  method: "POST"
  fields: Record<QuickCheckoutFieldName, string>
}

function requireText(value: unknown, name: string): string {
  if (typeof value !== "string" || value.trim() === "") throw new TypeError(`Quick Checkout ${name} is required`)
  return value
}

function requireUrl(value: unknown, name: string): string {
  const text = requireText(value, name)
  try {
    const u = new URL(text)
    if (u.protocol !== "http:" && u.protocol !== "https:") throw new Error()
  } catch {
    throw new TypeError(`Quick Checkout ${name} must be an absolute http(s) URL`)
  }
  return text
}

/**
 * Builds the signed Quick Checkout form POST (spec §4.2, §5.2). The result
 * holds the form action and the string fields, `signature` included, and
 * never the API key. The caller renders it as an auto-submitting form.
 */
export function buildQuickCheckoutForm(input: QuickCheckoutFormInput): QuickCheckoutForm {
  const base = normalizeBaseUrl(input.baseUrl)
  if (input.apiId === undefined || input.apiId === null || String(input.apiId).trim() === "") {
    throw new TypeError("Quick Checkout api_id is required")
  }
  if (typeof input.apiKey !== "string" || input.apiKey === "") {
    throw new TypeError("An API key is required to sign a Quick Checkout request")
  }
  const amount = formatAmount(input.amount)
  if (amount.startsWith("-") || /^0\.00$/.test(amount)) {
    throw new TypeError("Quick Checkout amount must be greater than zero")
  }
  const currency = requireText(input.currency, "currency").trim().toUpperCase()
  if (!(QUICK_CHECKOUT_CURRENCIES as readonly string[]).includes(currency)) {
    throw new TypeError(`Quick Checkout currency must be one of ${QUICK_CHECKOUT_CURRENCIES.join(", ")}`)
  }
  const description = requireText(input.description, "description")
  const orderId = requireText(input.orderId, "order_id")
  const successUrl = requireUrl(input.successUrl, "success_url")
  const cancelUrl = requireUrl(input.cancelUrl, "cancel_url")
  const ts = input.ts ?? Math.floor(Date.now() / 1000)
  if (typeof ts !== "number" || !Number.isSafeInteger(ts) || ts <= 0) {
    throw new TypeError("Quick Checkout ts must be a unix timestamp in seconds")
  }

  const unsigned = {
    api_id: String(input.apiId).trim(),
    amount,
    currency,
    description,
    order_id: orderId,
    success_url: successUrl,
    cancel_url: cancelUrl,
    ts: String(ts),
  }
  const signature = signQuickCheckout(unsigned, input.apiKey)
  return {
    action: `${base}/checkout/quick`,
    method: "POST",
    fields: { ...unsigned, signature },
  }
}
