/** The transfer page (/checkout/transfer): account details, polls the session until paid or failed. */
import { $, config, params, sdk, sleep } from "/js/core.js"
import { sessionStatus } from "/js/payment.js"
import { busy, dateTime, errorText, money, ready, show, showError, t } from "/js/ui.js"

export async function transferPage() {
  show("transfer")
  const sessionId = params.get("session_id")
  const cartId = params.get("cart_id")
  const orderId = params.get("order_id")
  // The shopper's reference is the order number (#1234), never the session id; the deadline is
  // in the transfer session's data (transfer.expiryHours after the transfer was created).
  let displayId = ""
  let expiresAt = null
  if (orderId) {
    const { order } = await sdk.store.order.retrieve(orderId, { fields: "id,display_id,*payment_collections.payment_sessions" }).catch(() => ({}))
    displayId = order?.display_id ? `#${order.display_id}` : ""
    const sessions = (order?.payment_collections || []).flatMap((pc) => pc.payment_sessions || [])
    expiresAt = sessions.find((s) => s.id === sessionId)?.data?.expires_at || null
  }
  $("#transfer-reference").textContent = displayId
  $("#transfer-deadline").textContent = expiresAt ? dateTime(expiresAt) : ""
  let trackingNo = null
  const settle = (result, button) =>
    busy(button, async () => {
      if (!trackingNo) throw new Error("No transfer tracking number yet") // demo-only button
      const res = await fetch(`/demo/emulator/transfers/${encodeURIComponent(trackingNo)}/settle`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ result }),
      })
      if (!res.ok) throw new Error(`emulator: HTTP ${res.status} ${await res.text()}`)
      await poll()
    })
  $("#simulate-panel").hidden = !config.emulator
  $("#simulate-approval").onclick = () => settle("successful", $("#simulate-approval"))
  $("#simulate-rejection").onclick = () => settle("failed", $("#simulate-rejection"))
  const copyButton = (button, text) => async () => {
    await navigator.clipboard?.writeText(text()).catch(() => {})
    button.textContent = t("copied")
  }
  $("#copy-iban").onclick = copyButton($("#copy-iban"), () => $("#transfer-iban").textContent.replace(/\s+/g, ""))
  $("#copy-reference").onclick = copyButton($("#copy-reference"), () => $("#transfer-reference").textContent)

  let done = false
  async function poll() {
    const s = await sessionStatus(sessionId, cartId)
    trackingNo = s.tracking_no
    $("#transfer-bank").textContent = s.bank_name || ""
    $("#transfer-holder").textContent = s.account_holder || ""
    $("#transfer-iban").textContent = s.iban_display || s.iban || ""
    $("#transfer-amount").textContent = s.amount ? money(s.amount, s.currency) : ""
    $("#transfer-tracking").textContent = s.tracking_no || ""
    $("#transfer-status").textContent = t(`status_${s.status}`)
    $("#transfer-status").dataset.status = s.status
    $("#transfer-status").dataset.state = s.state || ""
    if (s.status === "paid" && orderId && !done) {
      done = true
      location.href = `/order/confirmed?order_id=${encodeURIComponent(orderId)}`
    }
    if (s.status === "failed") {
      done = true
      $("#transfer-waiting").hidden = true
      $("#simulate-panel").hidden = true
      showError(t("paymentFailed"))
    }
  }
  while (!done) {
    await poll().catch((e) => showError(errorText(e)))
    ready()
    if (!done) await sleep(3000)
  }
}
