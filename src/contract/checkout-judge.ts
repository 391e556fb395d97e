import { buildQuickCheckoutForm } from "../client/checkout"
import { type FormStepResult, type ScenarioContext, serviceMessage } from "./context"
import { SPEC_ENDPOINTS } from "./spec-endpoints"
import { CONTRACT_AMOUNT, CONTRACT_CANCEL_URL, CONTRACT_CURRENCY, CONTRACT_SUCCESS_URL, orderId, type SharedState } from "./transfer-steps"

/** Quick Checkout (§4.2, §5.2): the client's signed form, and how the service's answer is read. */

const ERROR_PAGE_RE =
  /id=["']error["']|<title>[^<]*(?:hata|error)[^<]*<\/title>|invalid signature|signature (?:is )?(?:invalid|expired|mismatch)|ge[çc]ersiz imza|imza (?:ge[çc]ersiz|hatal[ıi]|do[ğg]rulanamad[ıi])|request refused|istek reddedildi/i

function maskIds(text: string): string {
  return text.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, "{uuid}").replace(/\d{6,}/g, "{n}")
}

function samePage(a: URL, b: URL): boolean {
  return a.origin === b.origin && a.pathname.replace(/\/+$/, "") === b.pathname.replace(/\/+$/, "")
}

/**
 * Did the service accept the Quick Checkout POST? Accepted: a 2xx page that
 * does not show an error, or a 3xx that does not lead to `cancel_url` or
 * carry `status=error`.
 */
export function judgeCheckoutAnswer(res: FormStepResult, baseUrl: string, cancelUrl: string): { accepted: boolean; how: string } {
  if (res.status >= 300 && res.status < 400) {
    if (!res.location) return { accepted: false, how: `HTTP ${res.status} without a Location header` }
    let loc: URL
    try {
      loc = new URL(res.location, `${baseUrl}/`)
    } catch {
      return { accepted: false, how: `HTTP ${res.status} to an unreadable Location` }
    }
    const shown = maskIds(`${loc.origin === new URL(baseUrl).origin ? "" : loc.origin}${loc.pathname}`)
    if (samePage(loc, new URL(cancelUrl)) || loc.searchParams.get("status") === "error") {
      const msg = loc.searchParams.get("message")
      return { accepted: false, how: `HTTP ${res.status} to ${shown} with status=error${msg ? ` (${msg})` : ""}` }
    }
    if (/\b(?:error|hata)\b/i.test(loc.pathname)) return { accepted: false, how: `HTTP ${res.status} to an error page ${shown}` }
    return { accepted: true, how: `HTTP ${res.status} redirect to ${shown}` }
  }
  if (res.status >= 200 && res.status < 300) {
    const m = ERROR_PAGE_RE.exec(res.text)
    if (m) return { accepted: false, how: `HTTP ${res.status} page that shows an error (matched "${m[0].slice(0, 60)}")` }
    return { accepted: true, how: `HTTP ${res.status} page (${res.contentType.split(";")[0] || "no content type"})` }
  }
  const msg = serviceMessage(res.text)
  return { accepted: false, how: `HTTP ${res.status}${msg ? `: ${msg.slice(0, 160)}` : ""}` }
}

export function quickForm(ctx: ScenarioContext, shared: SharedState, suffix: string) {
  return buildQuickCheckoutForm({
    baseUrl: ctx.target.baseUrl,
    apiId: ctx.target.apiId,
    apiKey: ctx.target.apiKey,
    amount: CONTRACT_AMOUNT,
    currency: CONTRACT_CURRENCY,
    orderId: orderId(shared, suffix),
    description: "Odeme contract test",
    successUrl: CONTRACT_SUCCESS_URL,
    cancelUrl: CONTRACT_CANCEL_URL,
  })
}

/**
 * POSTs the client's signed form (its signature changed by `tamper`, if
 * given) without following redirects, and notes how the service answered.
 */
export async function postQuickForm(
  ctx: ScenarioContext,
  shared: SharedState,
  suffix: string,
  stepName: string,
  tamper?: (signature: string) => string
) {
  const form = quickForm(ctx, shared, suffix)
  const fields = tamper ? { ...form.fields, signature: tamper(form.fields.signature) } : form.fields
  const path = SPEC_ENDPOINTS.quickCheckout.template
  const res = await ctx.form(stepName, path, path, fields)
  const verdict = judgeCheckoutAnswer(res, ctx.target.baseUrl, CONTRACT_CANCEL_URL)
  ctx.note(`answered: ${verdict.how}`)
  return { form, res, verdict }
}
