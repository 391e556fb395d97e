/** The return page (/checkout/return): back from the payment service, completes the cart. */
import { $, KEYS, params, sdk, sleep } from "/js/core.js"
import { sessionStatus } from "/js/payment.js"
import { errorText, ready, show, t } from "/js/ui.js"

function setReturnStatus(status, textKey, message) {
  $("#return-status").dataset.status = status
  $("#return-status-text").textContent = t(textKey)
  $("#return-status .spinner").hidden = status === "failed" || status === "error"
  const m = $("#return-message")
  m.textContent = message || ""
  m.hidden = !message
}

function paymentFailed(message) {
  ready()
  setReturnStatus("failed", "paymentFailed", [message, t("tryAgain")].filter(Boolean).join(" "))
  const back = $("#back-to-payment")
  back.hidden = false
  back.onclick = () => (location.href = `/checkout?${new URLSearchParams({ message: message || t("paymentFailed") })}`)
}

/**
 * Completes the cart after a return from the service. Handles the races with
 * the webhook: 409 "already being completed" → wait and retry (a retry returns
 * the order the other request created); `{type:"cart", error}` while the
 * payment is pending → keep polling the session, then complete again.
 */
async function completeAfterPayment(cartId, sessionId) {
  const deadline = Date.now() + 10 * 60_000
  while (Date.now() < deadline) {
    try {
      const res = await sdk.store.cart.complete(cartId)
      if (res.type === "order") {
        localStorage.removeItem(KEYS.cart)
        localStorage.removeItem(KEYS.payment)
        location.href = `/order/confirmed?order_id=${encodeURIComponent(res.order.id)}`
        return
      }
      const st = sessionId ? await sessionStatus(sessionId, cartId).catch(() => null) : null
      if (st?.status === "failed") return paymentFailed(res.error?.message || st.state)
      if (!st && !sessionId) return paymentFailed(res.error?.message)
      setReturnStatus("pending", "confirming")
      await sleep(3000)
    } catch (e) {
      if (e.status === 409) {
        setReturnStatus("pending", "confirming")
        await sleep(1000)
        continue
      }
      throw e
    }
  }
  setReturnStatus("pending", "confirming", t("waiting"))
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
  if (status === "failed" || !cartId) return paymentFailed(message)
  setReturnStatus(status === "paid" ? "paid" : "pending", status === "paid" ? "completing" : "confirming")
  ready()
  try {
    await completeAfterPayment(cartId, sessionId)
  } catch (e) {
    paymentFailed(errorText(e))
  }
}
