import type { EmulatorContext } from "./context"
import { HttpError, redirect, sendHtml } from "./http-util"
import { gte, isPositive, toTry } from "./money"
import { errorPage } from "./pages"
import { createPayment } from "./payments"
import { formFields, type Route, type RouteContext } from "./router"
import { sessionRoutes, sessionUrl } from "./session-routes"
import { checkQuickCheckoutSignature } from "./signature"
import type { Mode } from "./types"

const CURRENCIES = ["TRY", "USD", "EUR", "GBP"]
const REQUIRED = ["api_id", "ts", "signature", "amount", "currency", "order_id", "success_url", "cancel_url"] as const

function refuse(rc: RouteContext, status: number, reason: string): void {
  rc.ctx.log(`checkout refused (${status}): ${reason}`)
  sendHtml(rc.res, status, errorPage(status, reason))
}

function isHttpUrl(s: string): boolean {
  try {
    const u = new URL(s)
    return u.protocol === "http:" || u.protocol === "https:"
  } catch {
    return false
  }
}

/** Variant A (§4.2 rule 3) converts a foreign amount to TRY; variant B keeps it. */
function processedAmount(ctx: EmulatorContext, amount: string, currency: string) {
  if (ctx.state.config.currencyVariant === "A" && currency !== "TRY") {
    const converted = toTry(amount, currency, ctx.state.config.rates)
    if (converted === undefined) throw new HttpError(400, `No exchange rate configured for ${currency}`, true)
    return { amount: converted, currency: "TRY", requested_amount: amount, requested_currency: currency }
  }
  return { amount, currency }
}

function quickCheckout(rc: RouteContext): void {
  const { state } = rc.ctx
  const f = formFields(rc)
  for (const name of REQUIRED) {
    if (f[name] === undefined || f[name].trim() === "") return refuse(rc, 400, `Missing required field "${name}"`)
  }
  if (!/^\d+$/.test(f.api_id)) return refuse(rc, 400, `Invalid field "api_id": must be an integer`)
  if (!/^\d+\.\d{2}$/.test(f.amount)) return refuse(rc, 400, `Invalid field "amount": must have the shape 200.00`)
  if (!isPositive(f.amount)) return refuse(rc, 400, `Invalid field "amount": must be greater than 0`)
  const currency = f.currency.trim().toUpperCase()
  if (!CURRENCIES.includes(currency)) return refuse(rc, 400, `Invalid field "currency": must be one of ${CURRENCIES.join(", ")}`)
  if (!isHttpUrl(f.success_url)) return refuse(rc, 400, `Invalid field "success_url": must be an absolute URL`)
  if (!isHttpUrl(f.cancel_url)) return refuse(rc, 400, `Invalid field "cancel_url": must be an absolute URL`)

  const access = state.accessById(Number(f.api_id))
  if (!access) return refuse(rc, 401, `Unknown api_id ${f.api_id}`)
  if (access.apiIp !== "0.0.0.0") {
    return refuse(rc, 403, `Blocked: API access ${access.apiId} has an IP restriction (api_ip must be 0.0.0.0 for Quick Checkout)`)
  }
  const check = checkQuickCheckoutSignature(f, access.apiKey, {
    maxAgeSeconds: state.config.signatureMaxAgeSeconds,
    maxFutureSkewSeconds: 60,
  })
  if (!check.ok) {
    switch (check.reason) {
      case "bad_signature":
      case "missing_signature":
        return refuse(rc, 401, "Invalid signature: the signature does not match the request fields")
      case "missing_ts":
        return refuse(rc, 400, `Invalid field "ts": must be a unix timestamp`)
      case "expired":
        return refuse(rc, 400, `Signature expired: ts is older than ${state.config.signatureMaxAgeSeconds} seconds`)
      case "future_ts":
        return refuse(rc, 400, `Invalid field "ts": lies in the future`)
    }
  }
  if (access.mode === "live") {
    for (const k of ["success_url", "cancel_url"] as const) {
      if (new URL(f[k]).protocol !== "https:") return refuse(rc, 400, `Invalid field "${k}": HTTPS is required in production`)
    }
    const tryValue = toTry(f.amount, currency, state.config.rates)
    if (tryValue === undefined) return refuse(rc, 400, `No exchange rate configured for ${currency}`)
    if (!gte(tryValue, state.config.minimumAmountTry)) {
      return refuse(rc, 400, `Amount ${f.amount} ${currency} (${tryValue} TRY) is below the minimum of ${state.config.minimumAmountTry} TRY`)
    }
  }
  const p = createPayment(rc.ctx, {
    kind: "quick_checkout",
    method: null,
    mode: access.mode,
    api_id: access.apiId,
    order_id: f.order_id,
    ...processedAmount(rc.ctx, f.amount, currency),
    description: f.description || undefined,
    success_url: f.success_url,
    cancel_url: f.cancel_url,
  })
  redirect(rc.res, sessionUrl(p))
}

function hostedCheckout(rc: RouteContext): void {
  const { state } = rc.ctx
  const product = state.config.products.find((p) => p.slug === rc.params.slug && String(p.id) === rc.params.id)
  if (!product) throw new HttpError(404, `Product ${rc.params.slug}/${rc.params.id} not found`, true)
  // §4.1 rule 1: only the query string carries the redirect URLs.
  const success = rc.query.get("success_url") ?? undefined
  const cancel = rc.query.get("cancel_url") ?? undefined
  for (const [k, v] of [
    ["success_url", success],
    ["cancel_url", cancel],
  ] as const) {
    if (v !== undefined && !isHttpUrl(v)) throw new HttpError(400, `Invalid parameter "${k}": must be an absolute URL`, true)
  }
  const access = state.mainAccess
  const mode: Mode = access.mode
  const p = createPayment(rc.ctx, {
    kind: "hosted_checkout",
    method: null,
    mode,
    api_id: access.apiId,
    order_id: `P${product.id}-${Date.now()}`,
    ...processedAmount(rc.ctx, product.price, product.currency),
    description: product.name,
    success_url: success,
    cancel_url: cancel,
    product: { slug: product.slug, id: product.id },
  })
  redirect(rc.res, sessionUrl(p))
}

/** The two browser entry points (§4.1, §4.2), then the payment's pages. */
export function checkoutRoutes(): Route[] {
  return [
    { method: "POST", pattern: /^\/checkout\/quick$/, endpoint: "checkout_quick", html: true, handler: quickCheckout },
    ...sessionRoutes(),
    { method: ["GET", "POST"], pattern: /^\/checkout\/(?<slug>[^/]+)\/(?<id>\d+)$/, html: true, handler: hostedCheckout },
  ]
}
