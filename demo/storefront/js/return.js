/**
 * The return page (/checkout/return): back from the payment service, completes the cart.
 * Every text is the plugin's (medusa-payment-odeme/storefront) and is rendered from the
 * page's state, so switching the language renders it again; a failure is kept as its code.
 */
import { $, KEYS, config, odeme, params, sdk, state } from "/js/core.js"
import { sessionStatus } from "/js/payment.js"
import { money, onLanguageChange, ready, show, t } from "/js/ui.js"

/**
 * phase: checking | placing | confirming (odeme.odemeWaitingText) | failed | error.
 * failure: a code for odeme.odemeFailureMessage, or null. amount/currency: what the payment is for.
 * status: the plugin's last answer, for odeme.odemeShopperReference (which shows no internal id of it).
 */
const view = { phase: "checking", failure: null, amount: null, currency: null, status: null }

function render() {
  const lang = state.lang
  const ended = view.phase === "failed" || view.phase === "error"
  const wait = ended ? null : odeme.odemeWaitingText(view.phase, lang, { storeSendsEmail: config.storeSendsEmail === true })
  const status = $("#return-status")
  status.dataset.status = ended ? view.phase : view.phase === "placing" ? "paid" : "pending"
  status.dataset.phase = view.phase
  $("#return-status-text").textContent = wait ? wait.title : t(view.phase === "failed" ? "paymentFailed" : "errorGeneric")
  $("#return-status .spinner").hidden = ended || view.phase === "confirming"
  const message = ended && view.failure ? odeme.odemeFailureMessage(view.failure, lang) : ""
  $("#return-message").textContent = message
  $("#return-message").hidden = !message
  $("#back-to-payment").hidden = !ended

  $("#return-wait").hidden = !wait
  if (!wait) return
  // No label without its value: the amount's row once the amount is known, the reference's once there is one.
  $("#return-amount-label").textContent = wait.amountLabel
  $("#return-amount").textContent = view.amount ? money(view.amount, view.currency) : ""
  $("#return-details").hidden = !view.amount
  // No order yet on this page (it moves to the order's page once there is one): the helper decides what may be shown.
  const reference = odeme.odemeShopperReference({ status: view.status }, lang)
  $("#return-reference-label").textContent = reference?.label ?? ""
  $("#return-reference").textContent = reference?.value ?? ""
  $("#return-reference-label").hidden = $("#return-reference").hidden = !reference
  $("#return-next").replaceChildren(
    ...wait.next.map((line) => {
      const li = document.createElement("li")
      li.textContent = line
      return li
    })
  )
  $("#return-check-again").textContent = wait.checkAgain
  $("#return-check-again").hidden = view.phase !== "confirming"
  $("#return-to-cart").textContent = wait.backToCart
  $("#return-to-shop").textContent = wait.backToShop
}

function set(changes) {
  Object.assign(view, changes)
  render()
}

/** The payment did not go through: its code travels to the payment step, never its text. */
function paymentFailed(failure, phase = "failed") {
  ready()
  set({ phase, failure })
  $("#back-to-payment").onclick = () => (location.href = failure ? `/checkout?${new URLSearchParams({ reason: failure })}` : "/checkout")
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
      const paid = s.status === "paid" || s.state === "awaiting_transfer"
      set({ status: s, amount: s.amount || view.amount, currency: s.currency || view.currency, phase: paid ? "placing" : view.phase })
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
  if (result.outcome === "failed") return paymentFailed("declined")
  // Not confirmed within the minute: what the shopper has, what happens next, and a way on. Nothing
  // more is completed from here unless the shopper asks again.
  set({ phase: "confirming" })
}

async function waitForPayment(cartId, sessionId) {
  try {
    await completeAfterPayment(cartId, sessionId)
  } catch (e) {
    paymentFailed(odeme.odemeErrorCode(e), "error")
  }
}

export async function returnPage() {
  show("return")
  onLanguageChange(render)
  const stored = JSON.parse(localStorage.getItem(KEYS.payment) || "{}")
  // The cart is this browser's own (the redirect names none); the address holds only what the plugin sent.
  const cartId = stored.cart_id || localStorage.getItem(KEYS.cart)
  const returned = odeme.parseOdemeReturnParams(params)
  const sessionId = returned?.sessionId || stored.session_id
  // The cart's total until the plugin says what the payment is for.
  if (state.cart) set({ amount: state.cart.total, currency: state.cart.currency_code })
  const failure = returned && odeme.odemeReturnFailure(returned)
  // A failure (its reason code, translated here), or back through the cancel address with nothing
  // confirmed: canceled or declined on the service's page (it sends both there), not paid there.
  if (failure || !cartId || !sessionId) return paymentFailed(failure)
  set({ phase: returned?.status === "paid" ? "placing" : "checking" })
  $("#return-check-again").onclick = () => {
    set({ phase: "checking" })
    waitForPayment(cartId, sessionId)
  }
  ready()
  await waitForPayment(cartId, sessionId)
}
