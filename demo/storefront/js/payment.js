/**
 * Paying through the plugin's store routes: the payment session (reused while
 * still payable), Quick Checkout's signed form and Havale/EFT's bank accounts.
 */
import { $, CHECKOUT, KEYS, TRANSFER, config, sdk, state } from "/js/core.js"
import { refreshCart } from "/js/cart.js"
import { t } from "/js/ui.js"

export async function sessionStatus(sessionId, cartId) {
  const { payment_session } = await sdk.client.fetch(`/store/odeme/payment-sessions/${sessionId}`, { query: { cart_id: cartId } })
  return payment_session
}

export async function loadBanks(box = $("#bank-list")) {
  const { bank_groups } = await sdk.client.fetch("/store/odeme/banks")
  box.replaceChildren()
  const accounts = bank_groups.flatMap((g) => g.accounts)
  accounts.forEach((a, i) => {
    const label = document.createElement("label")
    label.className = "choice bank"
    label.innerHTML = `<input type="radio" name="bank_id" data-testid="bank-account"> <span><strong></strong><br><small></small></span>`
    const input = label.querySelector("input")
    input.value = String(a.bank_id)
    input.id = `bank-account-${a.bank_id}`
    input.checked = i === 0
    label.querySelector("strong").textContent = a.bank_name
    label.querySelector("small").textContent = `${a.account_holder} · ${a.iban_display || a.iban}${a.description ? ` · ${a.description}` : ""}`
    box.append(label)
  })
}

/** A pending session of `providerId` for the current cart total, or a new one. */
async function paymentSession(providerId, data) {
  const cart = await refreshCart()
  const pc = cart.payment_collection
  const existing = pc?.payment_sessions?.find((s) => s.provider_id === providerId && s.status === "pending")
  if (!data && existing && Number(pc.amount) === Number(cart.total)) {
    // A session whose payment already failed at the service cannot be paid again: start a new one.
    const st = await sessionStatus(existing.id, cart.id).catch(() => null)
    if (!st || st.status === "pending") return existing
  }
  const { payment_collection } = await sdk.store.payment.initiatePaymentSession(cart, { provider_id: providerId, ...(data ? { data } : {}) })
  const session = payment_collection.payment_sessions.find((s) => s.provider_id === providerId)
  if (!session) throw new Error("No payment session was created")
  return session
}

/** Quick Checkout: a freshly signed form, posted right away (the service's page takes over). */
export async function payWithCheckout() {
  const session = await paymentSession(CHECKOUT)
  const cartId = state.cart.id
  const { form } = await sdk.client.fetch(`/store/odeme/payment-sessions/${session.id}/form`, {
    method: "POST",
    body: { cart_id: cartId },
  })
  localStorage.setItem(KEYS.payment, JSON.stringify({ provider: CHECKOUT, session_id: session.id, cart_id: cartId }))
  postForm(form)
}

/** Posts a freshly signed Quick Checkout form to the service (the browser leaves for its page). */
export function postForm(form) {
  const el = $("#odeme-form")
  el.replaceChildren()
  el.action = form.action
  el.method = form.method || "POST"
  for (const [name, value] of Object.entries(form.fields || {})) {
    const input = document.createElement("input")
    input.type = "hidden"
    input.name = name
    input.value = String(value)
    el.append(input)
  }
  el.submit()
}

/** Havale/EFT: session with the chosen account and payer, then the order (payment "awaiting"). */
export async function payWithTransfer() {
  const bank = document.querySelector('input[name="bank_id"]:checked')
  const name = $("#payer-name").value.trim()
  if (!bank) throw new Error(t("chooseBank"))
  if (name.length < 3) throw new Error(t("payerNameHint"))
  const data = { bank_id: Number(bank.value), customer_name: name }
  if (state.cart.email) data.customer_email = state.cart.email
  if (config.mode === "sandbox") data.sandbox_result = $("#sandbox-result").value
  const session = await paymentSession(TRANSFER, data)
  const cartId = state.cart.id
  localStorage.setItem(KEYS.payment, JSON.stringify({ provider: TRANSFER, session_id: session.id, cart_id: cartId }))
  const res = await sdk.store.cart.complete(cartId)
  if (res.type !== "order") throw new Error(res.error?.message || "The order could not be created")
  localStorage.removeItem(KEYS.cart)
  const q = new URLSearchParams({ session_id: session.id, cart_id: cartId, order_id: res.order.id })
  location.href = `/checkout/transfer?${q}`
}
