import { buildQuickCheckoutForm, type QuickCheckoutForm } from "../client"
import { DEFAULT_DESCRIPTION, type OdemeOptions } from "./options"
import { serviceOrderId } from "./order-reference"
import { returnProof } from "./session-tag"

/**
 * The plugin's return route for a session and outcome (spec §4.2 success_url / cancel_url), with the
 * session's return proof as its last segment: only a visit that carries it learns where the payment stands.
 */
export function returnUrl(options: OdemeOptions, sessionId: string, outcome: "success" | "cancel"): string {
  return `${options.backendUrl}/odeme/return/${encodeURIComponent(sessionId)}/${outcome}/${returnProof(options.apiKey, sessionId)}`
}

/**
 * The payment description: Turkish by default, since the customer and the merchant panel read it; the
 * order number when there is one, else the payment's short reference (the `order_id` the service's page
 * shows beside it), never an internal id unless the merchant asks; never empty (spec §5.2 rule 5). A
 * session recorded before references existed has none: `{order}` is left out and `{reference}` is its id.
 */
export function checkoutDescription(
  options: OdemeOptions,
  sessionId: string,
  orderNumber?: string | number | null,
  reference?: string | null
): string {
  const fill = (template: string) =>
    template
      .replace(/\{order\}/g, orderNumber != null && orderNumber !== "" ? `#${orderNumber}` : (reference ?? ""))
      .replace(/\{reference\}/g, serviceOrderId({ session_id: sessionId, reference }))
      .replace(/\s+/g, " ")
      .trim()
      .slice(0, 255)
  return fill(options.checkout.description) || fill(DEFAULT_DESCRIPTION)
}

/**
 * The signed Quick Checkout form for a session: the one place where it is
 * built, for the session data and for the fresh-form route (new `ts`).
 */
export function checkoutFormFor(
  options: OdemeOptions,
  session: { session_id: string; reference?: string | null; amount: string; currency: string; order_number?: string | number | null },
  now: Date = new Date()
): QuickCheckoutForm {
  return buildQuickCheckoutForm({
    baseUrl: options.baseUrl,
    apiId: options.apiId,
    apiKey: options.apiKey,
    amount: session.amount,
    currency: session.currency,
    orderId: serviceOrderId(session),
    description: checkoutDescription(options, session.session_id, session.order_number, session.reference),
    successUrl: returnUrl(options, session.session_id, "success"),
    cancelUrl: returnUrl(options, session.session_id, "cancel"),
    ts: Math.floor(now.getTime() / 1000),
  })
}
