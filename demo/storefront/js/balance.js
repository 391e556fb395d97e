/**
 * The balance page (/payment-collection/:id?order_id=…): the address Admin's
 * "Copy payment link" gives when an order owes more after an edit, exchange
 * or claim. Shows what the order still owes and pays it with Quick Checkout
 * or a bank transfer; the plugin's return route sends the customer back here
 * (?status=&session_id=), and the page polls until the payment is confirmed.
 * The collection and its order are the proof of ownership (no cart).
 */
import { $, CHECKOUT, TRANSFER, config, odeme, params, sdk, sleep } from "/js/core.js"
import { loadBanks, postForm } from "/js/payment.js"
import { busy, dateTime, errorText, money, onLanguageChange, ready, show, showError, showFailure, t } from "/js/ui.js"

const collectionId = () => decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "")

async function balanceStatus(sessionId, proof) {
  const { payment_session } = await sdk.client.fetch(`/store/odeme/payment-sessions/${sessionId}`, { query: proof })
  return payment_session
}

/** A new session of `providerId` on the collection (the collection's amount is what is owed). */
async function balanceSession(id, providerId, data) {
  const { payment_collection } = await sdk.client.fetch(`/store/payment-collections/${id}/payment-sessions`, {
    method: "POST",
    body: { provider_id: providerId, ...(data ? { data } : {}) },
  })
  const session = payment_collection.payment_sessions.find((s) => s.provider_id === providerId)
  if (!session) throw new Error(t("providerMissing"))
  return session
}

function setStatus(status, textKey) {
  const el = $("#balance-status")
  el.dataset.status = status
  el.dataset.text = textKey || ""
  el.hidden = !textKey
  $("#balance-status-text").textContent = textKey ? t(textKey) : ""
  $("#balance-status .spinner").hidden = status !== "pending"
}

function showPaid() {
  setStatus("paid", "balancePaid")
  $("#balance-pay").hidden = true
  $("#balance-transfer").hidden = true
}

export async function balancePage() {
  show("balance")
  // The status line follows a language switch, as the failure banner does.
  onLanguageChange(() => {
    const key = $("#balance-status").dataset.text
    if (key) $("#balance-status-text").textContent = t(key)
  })
  const id = collectionId()
  const orderId = params.get("order_id")
  const proof = { payment_collection_id: id, order_id: orderId }
  if (!id || !orderId) {
    ready()
    return showError(t("balanceLinkInvalid"))
  }
  const { order } = await sdk.store.order
    .retrieve(orderId, { fields: "id,display_id,currency_code,total,*payment_collections" })
    .catch(() => ({ order: null }))
  const collection = order?.payment_collections?.find((pc) => pc.id === id)
  if (!collection) {
    ready()
    return showError(t("balanceLinkInvalid"))
  }
  $("#balance-order").textContent = `#${order.display_id}`
  $("#balance-amount").textContent = money(collection.amount, order.currency_code)
  $("#balance-total").textContent = money(order.total, order.currency_code)
  if (collection.status === "completed" || collection.status === "authorized") {
    showPaid()
    return ready()
  }

  const poll = async (sessionId) => {
    for (;;) {
      const s = await balanceStatus(sessionId, proof).catch((e) => (showError(errorText(e)), null))
      if (s?.status === "paid") return showPaid()
      if (s?.status === "failed") {
        setStatus("failed", "paymentFailed")
        $("#balance-pay").hidden = false
        return
      }
      if (s?.flow === "transfer_api") showTransfer(s)
      await sleep(3000)
    }
  }

  $("#balance-sandbox-label").hidden = config.mode !== "sandbox"
  await loadBanks($("#balance-bank-list")).catch((e) => showError(errorText(e)))
  for (const radio of document.querySelectorAll('input[name="balance-payment"]')) {
    radio.onchange = () => ($("#balance-transfer-fields").hidden = $("#balance-pay-transfer").checked === false)
  }
  $("#balance-pay-button").onclick = () =>
    busy($("#balance-pay-button"), async () => {
      if ($("#balance-pay-transfer").checked) {
        const bank = document.querySelector('#balance-bank-list input[name="bank_id"]:checked')
        const name = $("#balance-payer-name").value.trim()
        if (!bank) throw new Error(t("chooseBank"))
        if (name.length < 3) throw new Error(t("payerNameHint"))
        const data = { bank_id: Number(bank.value), customer_name: name }
        if (config.mode === "sandbox") data.sandbox_result = $("#balance-sandbox-result").value
        const session = await balanceSession(id, TRANSFER, data)
        // A balance has no cart to complete: this starts the transfer at the service.
        await sdk.client.fetch(`/store/odeme/payment-sessions/${session.id}/authorize`, { method: "POST", body: proof })
        $("#balance-pay").hidden = true
        setStatus("pending", "confirming")
        history.replaceState(null, "", `${location.pathname}?${new URLSearchParams({ order_id: orderId, session_id: session.id })}`)
        return poll(session.id)
      }
      const session = await balanceSession(id, CHECKOUT)
      const { form } = await sdk.client.fetch(`/store/odeme/payment-sessions/${session.id}/form`, { method: "POST", body: proof })
      postForm(form)
    })

  const sessionId = params.get("session_id")
  const status = params.get("status")
  if (sessionId) {
    // Back from the payment service, or a reload while a transfer waits.
    // Back through the cancel address with nothing confirmed: canceled or declined on the service's page (it sends
    // both there), not paid there. The plugin's neutral text (never "canceled"), and an offer to pay again.
    // The failure by its code (the reason, or not_completed), in the page's language and again after a switch.
    const returned = odeme.parseOdemeReturnParams(params)
    const failure = returned && odeme.odemeReturnFailure(returned)
    $("#balance-pay").hidden = !failure
    if (failure) {
      setStatus("failed", "paymentFailed")
      showFailure(failure)
      return ready()
    }
    setStatus("pending", "confirming")
    ready()
    return poll(sessionId)
  }
  ready()
}

let settleWired = false
let tracking = null
/** The transfer's account details while it waits (the reference is the order number, as the bank's note asks). */
function showTransfer(s) {
  tracking = s.tracking_no
  $("#balance-transfer").hidden = false
  $("#balance-transfer-bank").textContent = s.bank_name || ""
  $("#balance-transfer-holder").textContent = s.account_holder || ""
  $("#balance-transfer-iban").textContent = s.iban_display || s.iban || ""
  $("#balance-transfer-amount").textContent = s.amount ? money(s.amount, s.currency) : ""
  $("#balance-transfer-reference").textContent = $("#balance-order").textContent
  $("#balance-transfer-deadline").textContent = s.expires_at ? dateTime(s.expires_at) : ""
  $("#balance-simulate").hidden = !config.emulator || !s.tracking_no
  if (settleWired) return
  settleWired = true
  $("#balance-copy-iban").onclick = async () => {
    await navigator.clipboard?.writeText($("#balance-transfer-iban").textContent.replace(/\s+/g, "")).catch(() => {})
    $("#balance-copy-iban").textContent = t("copied")
  }
  const settle = (result, button) =>
    busy(button, async () => {
      const res = await fetch(`/demo/emulator/transfers/${encodeURIComponent(tracking)}/settle`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ result }),
      })
      // The page's poll (every 3 s) picks the approval up.
      if (!res.ok) throw new Error(`emulator: HTTP ${res.status}`)
    })
  $("#balance-simulate-approval").onclick = () => settle("successful", $("#balance-simulate-approval"))
}
