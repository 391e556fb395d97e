/** The return page (/checkout/return): back from the payment service, completes the cart. */
import { $, KEYS, odeme, params, sdk, state } from "/js/core.js"
import { sessionStatus } from "/js/payment.js"
import { errorText, ready, show, t } from "/js/ui.js"

function setReturnStatus(status, textKey, message) {
  $("#return-status").dataset.status = status
  $("#return-status-text").textContent = t(textKey)
  $("#return-status .spinner").hidden = status === "failed" || status === "error" || textKey === "stillConfirming"
  const m = $("#return-message")
  m.textContent = message || ""
  m.hidden = !message
}

/** `tryAgain` false when `message` already offers it (the plugin's text for a return through the cancel address). */
function paymentFailed(message, tryAgain = true) {
  ready()
  setReturnStatus("failed", "paymentFailed", [message, tryAgain && t("tryAgain")].filter(Boolean).join(" "))
  const back = $("#back-to-payment")
  back.hidden = false
  back.onclick = () => (location.href = `/checkout?${new URLSearchParams({ message: message || t("paymentFailed") })}`)
}

/**
 * After a return from the service: asks the plugin for at most a minute and completes the
 * cart **once**, when the session says paid (or, for a transfer chosen on the Quick Checkout
 * page, once it exists). Never in a loop: every refused completion costs an order number and
 * races the webhook, which completes the cart anyway. A 409 "already being completed" (the
 * webhook at work) is waited for and asked once more (odeme.completeWhenPaid).
 */
async function completeAfterPayment(cartId, sessionId) {
  const result = await odeme.completeWhenPaid({
    fetchStatus: () => sessionStatus(sessionId, cartId),
    onStatus: (s) => {
      if (s.status === "paid" || s.state === "awaiting_transfer") setReturnStatus("paid", "completing")
    },
    completeCart: () => sdk.store.cart.complete(cartId),
    intervalMs: 2000,
  })
  if (result.outcome === "order") {
    localStorage.removeItem(KEYS.cart)
    localStorage.removeItem(KEYS.payment)
    location.href = `/order/confirmed?order_id=${encodeURIComponent(result.order.id)}`
    return
  }
  if (result.outcome === "failed") return paymentFailed()
  // Not confirmed within the minute: a calm last word, nothing more is completed from here.
  setReturnStatus("pending", "stillConfirming", t("stillConfirmingDetail"))
}

export async function returnPage() {
  show("return")
  const status = params.get("status")
  const stored = JSON.parse(localStorage.getItem(KEYS.payment) || "{}")
  const cartId = params.get("cart_id") || stored.cart_id || localStorage.getItem(KEYS.cart)
  const sessionId = params.get("session_id") || stored.session_id
  // The plugin sends a reason code, never text from the URL: translate it here.
  const reason = params.get("reason")
  const message = reason ? t(`reason_${reason}`) : undefined
  if (status === "failed" || !cartId || !sessionId) return paymentFailed(message)
  // Back through the cancel address with nothing confirmed: canceled or declined on the service's page (it sends
  // both there), not paid there. The plugin's neutral text (never "canceled"), and an offer to pay again.
  if (status === "pending" && params.get("returned") === "cancel") return paymentFailed(odeme.odemeNotCompletedMessage(state.lang), false)
  setReturnStatus(status === "paid" ? "paid" : "pending", status === "paid" ? "completing" : "confirming")
  ready()
  try {
    await completeAfterPayment(cartId, sessionId)
  } catch (e) {
    paymentFailed(errorText(e))
  }
}
