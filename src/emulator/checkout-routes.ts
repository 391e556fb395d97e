import { verifyQuickCheckoutSignature } from "../client/signature"
import type { EmulatorContext } from "./context"
import { BANK_ACCOUNTS } from "./fixtures"
import { HttpError, redirect, sendHtml } from "./http-util"
import { gte, isPositive, toTry } from "./money"
import { errorPage, resultPage, sessionPage, waitingPage } from "./pages"
import { attachTransfer, createPayment, finalize, MESSAGES, redirectTarget } from "./payments"
import type { Route, RouteContext } from "./router"
import type { Mode, Payment } from "./types"

const CURRENCIES = ["TRY", "USD", "EUR", "GBP"]
const REQUIRED = ["api_id", "ts", "signature", "amount", "currency", "order_id", "success_url", "cancel_url"] as const

function refuse(rc: RouteContext, status: number, reason: string): void {
  rc.ctx.log(`checkout refused (${status}): ${reason}`)
  sendHtml(rc.res, status, errorPage(status, reason))
}

function formFields(rc: RouteContext): Record<string, string> {
  const b = rc.body
  if (b.kind === "form") return b.value
  if (b.kind === "json" && b.value && typeof b.value === "object" && !Array.isArray(b.value)) {
    const out: Record<string, string> = {}
    for (const [k, v] of Object.entries(b.value)) if (v !== null && v !== undefined) out[k] = String(v)
    return out
  }
  if (b.kind === "none") return {}
  throw new HttpError(400, "Quick Checkout expects a form POST (application/x-www-form-urlencoded)", true)
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

function sessionUrl(p: Payment, suffix = ""): string {
  return `/checkout/session/${encodeURIComponent(p.uuid)}${suffix}`
}

/** Sends the browser on for a final payment: redirect with §6.1 parameters, or the result page. */
function finish(rc: RouteContext, p: Payment): void {
  const target = redirectTarget(rc.ctx, p)
  if (target) redirect(rc.res, target)
  else sendHtml(rc.res, 200, resultPage(p))
}

function loadPayment(rc: RouteContext): Payment {
  const p = rc.ctx.state.payments.get(rc.params.uuid)
  if (!p || p.kind === "bank_transfer_api") throw new HttpError(404, "Payment session not found", true)
  return p
}

function transferAllowed(ctx: EmulatorContext, p: Payment): boolean {
  return ctx.state.bankTransferAllowedOnPages && (p.kind === "quick_checkout" || p.kind === "hosted_checkout")
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
  const signed: Record<string, string> = {}
  for (const k of ["api_id", "amount", "currency", "description", "order_id", "success_url", "cancel_url", "ts"]) {
    if (f[k] !== undefined) signed[k] = f[k]
  }
  const check = verifyQuickCheckoutSignature(signed, f.signature, access.apiKey, {
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
  for (const [k, v] of [["success_url", success], ["cancel_url", cancel]] as const) {
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

export function checkoutRoutes(): Route[] {
  const S = "^/checkout/session/(?<uuid>[^/]+)"
  return [
    { method: "POST", pattern: /^\/checkout\/quick$/, endpoint: "checkout_quick", html: true, handler: quickCheckout },
    {
      method: "GET",
      pattern: new RegExp(`${S}$`),
      html: true,
      handler: (rc) => {
        const p = loadPayment(rc)
        if (p.status !== "pending") return finish(rc, p)
        if (p.method === "bank_transfer") return redirect(rc.res, sessionUrl(p, "/waiting"))
        sendHtml(rc.res, 200, sessionPage(p, { transfer: transferAllowed(rc.ctx, p), banks: BANK_ACCOUNTS }))
      },
    },
    {
      method: "POST",
      pattern: new RegExp(`${S}/complete$`),
      html: true,
      handler: (rc) => {
        const p = loadPayment(rc)
        if (p.status !== "pending") return finish(rc, p)
        if (p.method === "bank_transfer") return redirect(rc.res, sessionUrl(p, "/waiting"))
        const f = formFields(rc)
        const outcome = f.outcome
        if (outcome === "approve") finalize(rc.ctx, p, "successful", { method: "credit_card" })
        else if (outcome === "reject") finalize(rc.ctx, p, "failed", { method: "credit_card", message: MESSAGES.reject })
        else if (outcome === "insufficient") finalize(rc.ctx, p, "failed", { method: "credit_card", message: MESSAGES.insufficient })
        else throw new HttpError(400, `Invalid field "outcome": must be approve, reject or insufficient`, true)
        finish(rc, p)
      },
    },
    {
      method: "POST",
      pattern: new RegExp(`${S}/transfer$`),
      html: true,
      handler: (rc) => {
        const p = loadPayment(rc)
        if (p.status !== "pending") return finish(rc, p)
        if (p.method === "bank_transfer") return redirect(rc.res, sessionUrl(p, "/waiting"))
        if (!transferAllowed(rc.ctx, p)) throw new HttpError(403, "Bank transfer is not enabled for this merchant", true)
        const f = formFields(rc)
        const sender = (f.sender_name ?? "").trim()
        if (!sender) throw new HttpError(400, `Missing required field "sender_name"`, true)
        const bank = BANK_ACCOUNTS.find((b) => String(b.bta_id) === String(f.bank_id ?? ""))
        if (!bank) throw new HttpError(400, `Invalid field "bank_id": not a known bank account`, true)
        attachTransfer(p, bank, sender)
        redirect(rc.res, sessionUrl(p, "/waiting"))
      },
    },
    {
      method: "GET",
      pattern: new RegExp(`${S}/waiting$`),
      html: true,
      handler: (rc) => {
        const p = loadPayment(rc)
        if (p.status !== "pending") return finish(rc, p)
        if (!p.transfer) return redirect(rc.res, sessionUrl(p))
        sendHtml(rc.res, 200, waitingPage(p))
      },
    },
    {
      method: "POST",
      pattern: new RegExp(`${S}/transfer/settle$`),
      html: true,
      handler: (rc) => {
        const p = loadPayment(rc)
        if (p.status !== "pending") return finish(rc, p)
        if (!p.transfer) return redirect(rc.res, sessionUrl(p))
        if (p.mode !== "sandbox") throw new HttpError(403, "Sandbox buttons are not available in live mode", true)
        const result = formFields(rc).result
        if (result !== "successful" && result !== "failed") {
          throw new HttpError(400, `Invalid field "result": must be successful or failed`, true)
        }
        finalize(rc.ctx, p, result, { message: MESSAGES.transferRejected })
        finish(rc, p)
      },
    },
    { method: ["GET", "POST"], pattern: /^\/checkout\/(?<slug>[^/]+)\/(?<id>\d+)$/, html: true, handler: hostedCheckout },
  ]
}

