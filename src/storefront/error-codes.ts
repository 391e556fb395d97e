/**
 * Stable codes of the errors a customer can meet at checkout. The storefront
 * translates the code (`medusa-payment-odeme/storefront`), never the English
 * message. The server's errors (`src/lib/medusa-errors.ts`) take their codes
 * from here, so both sides share one list.
 *
 * Medusa answers a cart completion that failed in payment authorization with
 * `{ type: "cart", error: { message, name, type } }`: the error's `code` is
 * not in that answer. So the code also ends the message, in brackets, where
 * `odemeErrorCode()` finds it whichever way the error travelled.
 */
export const ODEME_ERROR_CODES = [
  /** The service did not answer (timeout, network, 5xx): try again in a moment. */
  "odeme.service_unavailable",
  /** The service refused the merchant's credentials or IP: the store must fix its setup. */
  "odeme.service_misconfigured",
  /** The service refused the request (4xx other than credentials). */
  "odeme.service_refused",
  /** The service answered something the plugin cannot read. */
  "odeme.service_invalid_answer",
  "odeme.currency_unsupported",
  "odeme.amount_invalid",
  "odeme.amount_below_minimum",
  /** The storefront's return_url is not on a configured storefront origin. */
  "odeme.return_url_not_allowed",
  /** The payment session's data is malformed (a storefront bug). */
  "odeme.invalid_session_data",
  "odeme.bank_unknown",
  /** A transfer needs a bank account and the payer's name. */
  "odeme.transfer_details_missing",
  "odeme.sandbox_only",
  "odeme.session_unknown",
  "odeme.payment_failed",
  "odeme.payment_canceled",
  "odeme.payment_in_review",
  /** Not confirmed by the service yet: ask again. */
  "odeme.payment_pending",
  /** A transfer creation is still running in another request. */
  "odeme.payment_in_progress",
  /** A transfer creation may have happened at the service: it is never repeated. */
  "odeme.creation_unknown",
  /** A balance link, or a second tab still on the checkout, was opened after the order was canceled. */
  "odeme.order_canceled",
  /** The cart or balance was already paid by another payment (a second tab): nothing more to pay. */
  "odeme.already_paid",
  /** The balance's amount changed since the session was opened: start a new payment for what is owed now. */
  "odeme.amount_changed",
  /** Another request held the cart (a completion, a capture) for longer than the plugin waits: try again in a moment. */
  "odeme.cart_busy",
] as const

export type OdemeErrorCode = (typeof ODEME_ERROR_CODES)[number]

/** The message as the plugin sends it: the text, then the code in brackets (a store code, or an admin route's). */
export function messageWithCode(message: string, code: `odeme.${string}`): string {
  return `${message} [${code}]`
}

export function isOdemeErrorCode(value: unknown): value is OdemeErrorCode {
  return typeof value === "string" && (ODEME_ERROR_CODES as readonly string[]).includes(value)
}

/**
 * The code of an error from the plugin: its `code` field (store routes) or
 * the bracketed code that ends its message (cart completion, js-sdk errors).
 */
export function odemeErrorCode(error: unknown): OdemeErrorCode | null {
  if (!error || typeof error !== "object") return typeof error === "string" ? codeInMessage(error) : null
  const e = error as { code?: unknown; message?: unknown; error?: unknown }
  if (isOdemeErrorCode(e.code)) return e.code
  if (typeof e.message === "string") {
    const found = codeInMessage(e.message)
    if (found) return found
  }
  // `{ type: "cart", error }` as Medusa answers a failed completion.
  return e.error && e.error !== error ? odemeErrorCode(e.error) : null
}

function codeInMessage(message: string): OdemeErrorCode | null {
  // A storefront may add a full stop (the dtc-starter's medusaError does).
  const m = /\[(odeme\.[a-z_]+)\]\.?\s*$/.exec(message)
  return m && isOdemeErrorCode(m[1]) ? m[1] : null
}
