/**
 * The demo storefront: plain ES module on top of @medusajs/js-sdk (bundled by
 * scripts/demo.js). Pages (all served as index.html):
 *   /                   products + cart
 *   /checkout           address → shipping → payment (Quick Checkout or Havale/EFT)
 *   /checkout/return    back from the payment service (?status=paid|pending|failed&session_id&cart_id[&message])
 *   /checkout/transfer  transfer instructions, polls the session status (?session_id&cart_id&order_id)
 *   /order/confirmed    order confirmation (?order_id)
 */
import Medusa from "/vendor/medusa-js-sdk.js"
import { messages } from "/i18n.js"

const CHECKOUT = "pp_odeme-checkout_odeme"
const TRANSFER = "pp_odeme-transfer_odeme"
const KEYS = { lang: "odeme-demo:lang", currency: "odeme-demo:currency", cart: "odeme-demo:cart", payment: "odeme-demo:payment" }

const config = await (await fetch("/config.json")).json()
const sdk = new Medusa({ baseUrl: config.backendUrl, publishableKey: config.publishableKey })

const $ = (sel) => document.querySelector(sel)
const sleep = (ms) => new Promise((r) => setTimeout(r, ms))
const params = new URLSearchParams(location.search)

const state = {
  lang: localStorage.getItem(KEYS.lang) || "tr",
  currency: localStorage.getItem(KEYS.currency) || "TRY",
  regions: {},
  cart: null,
}

/* ---------------------------------------------------------------- i18n, banners */

const t = (key) => messages[state.lang][key] ?? messages.tr[key] ?? key

function applyLanguage() {
  document.documentElement.lang = state.lang
  document.title = t("title")
  for (const el of document.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n)
  for (const b of document.querySelectorAll("[data-lang]")) b.classList.toggle("active", b.dataset.lang === state.lang)
  for (const b of document.querySelectorAll("[data-currency]")) b.classList.toggle("active", b.dataset.currency === state.currency)
}

function money(amount, currency = state.cart?.currency_code || state.currency) {
  if (amount === null || amount === undefined) return ""
  return new Intl.NumberFormat(state.lang === "tr" ? "tr-TR" : "en-GB", {
    style: "currency",
    currency: currency.toUpperCase(),
  }).format(Number(amount))
}

function errorText(e) {
  return e?.message || String(e)
}

function showError(message) {
  const el = $("#error-banner")
  el.textContent = message ? `${t("error")}: ${message}` : ""
  el.hidden = !message
  if (message) el.scrollIntoView({ behavior: "smooth", block: "nearest" })
}

function showInfo(message) {
  const el = $("#info-banner")
  el.textContent = message || ""
  el.hidden = !message
}

function show(view) {
  for (const el of document.querySelectorAll(".view")) el.hidden = el.id !== `view-${view}`
  document.body.dataset.view = view
  // The currency (region) can only change while shopping or checking out.
  $("#currency-TRY").parentElement.hidden = !["shop", "checkout"].includes(view)
}

/** Marks the page as rendered (for browser tests): body[data-ready="true"]. */
const ready = () => (document.body.dataset.ready = "true")

/** Runs an action from a button, disabling it and showing errors in the banner. */
async function busy(button, fn) {
  showError("")
  if (button) button.disabled = true
  try {
    return await fn()
  } catch (e) {
    console.error(e)
    showError(errorText(e))
  } finally {
    if (button) button.disabled = false
  }
}

/* ---------------------------------------------------------------- regions, cart */

async function loadRegions() {
  const { regions } = await sdk.store.region.list({ fields: "id,name,currency_code,*countries" })
  for (const r of regions) state.regions[r.currency_code.toUpperCase()] = r
  if (!state.regions[state.currency]) state.currency = Object.keys(state.regions)[0] || "TRY"
}

const region = () => state.regions[state.currency]

const CART_FIELDS =
  "id,email,currency_code,region_id,completed_at,total,subtotal,item_subtotal,tax_total,shipping_total," +
  "*items,*shipping_address,*shipping_methods,*payment_collection,*payment_collection.payment_sessions,*region,*region.countries"

async function loadCart() {
  const id = localStorage.getItem(KEYS.cart)
  if (!id) return (state.cart = null)
  try {
    const { cart } = await sdk.store.cart.retrieve(id, { fields: CART_FIELDS })
    if (cart.completed_at) throw new Error("completed")
    state.cart = cart
  } catch {
    localStorage.removeItem(KEYS.cart)
    state.cart = null
  }
  return state.cart
}

async function ensureCart() {
  if (state.cart) return state.cart
  const { cart } = await sdk.store.cart.create({ region_id: region().id }, { fields: CART_FIELDS })
  localStorage.setItem(KEYS.cart, cart.id)
  return (state.cart = cart)
}

async function refreshCart() {
  if (!state.cart) return null
  const { cart } = await sdk.store.cart.retrieve(state.cart.id, { fields: CART_FIELDS })
  return (state.cart = cart)
}

function renderCart() {
  const cart = state.cart
  const items = cart?.items || []
  $("#cart-count").textContent = String(items.reduce((n, i) => n + i.quantity, 0))
  const list = $("#cart-items")
  list.replaceChildren()
  for (const item of items) {
    const li = document.createElement("li")
    li.dataset.testid = "cart-item"
    li.innerHTML = `<span class="qty"></span> <span class="name"></span> <span class="price"></span> `
    li.querySelector(".qty").textContent = `${item.quantity}×`
    li.querySelector(".name").textContent = item.product_title || item.title
    li.querySelector(".price").textContent = money(item.total ?? item.subtotal)
    const rm = document.createElement("button")
    rm.type = "button"
    rm.className = "link"
    rm.dataset.testid = "remove-item"
    rm.textContent = t("remove")
    rm.onclick = () =>
      busy(rm, async () => {
        await sdk.store.cart.deleteLineItem(cart.id, item.id)
        await refreshCart()
        renderCart()
      })
    li.append(rm)
    list.append(li)
  }
  $("#cart-empty").hidden = items.length > 0
  $("#cart-subtotal").textContent = items.length ? money(cart.item_subtotal ?? cart.subtotal) : ""
  $("#cart-total").textContent = items.length ? money(cart.total) : ""
  $("#checkout-button").disabled = items.length === 0
}

/* ---------------------------------------------------------------- shop */

async function renderProducts() {
  const { products } = await sdk.store.product.list({
    region_id: region().id,
    fields: "id,title,handle,description,thumbnail,*variants,*variants.calculated_price",
    limit: 50,
  })
  const list = $("#product-list")
  list.replaceChildren()
  const tpl = $("#product-template")
  for (const p of products) {
    const card = tpl.content.firstElementChild.cloneNode(true)
    const variant = p.variants[0]
    card.dataset.handle = p.handle
    card.id = `product-${p.handle}`
    card.querySelector("img").src = p.thumbnail || "/img/kahve.svg"
    card.querySelector("img").alt = p.title
    card.querySelector(".product-title").textContent = p.title
    card.querySelector(".product-description").textContent = p.description || ""
    const price = variant?.calculated_price
    card.querySelector(".product-price").textContent = price ? money(price.calculated_amount, price.currency_code) : "—"
    const add = card.querySelector(".add-to-cart")
    add.textContent = t("addToCart")
    add.id = `add-to-cart-${p.handle}`
    add.dataset.testid = `add-to-cart-${p.handle}`
    add.disabled = !price
    add.onclick = () =>
      busy(add, async () => {
        const cart = await ensureCart()
        await sdk.store.cart.createLineItem(cart.id, { variant_id: variant.id, quantity: 1 })
        await refreshCart()
        renderCart()
      })
    list.append(card)
  }
}

async function setCurrency(currency) {
  if (!state.regions[currency] || currency === state.currency) return
  state.currency = currency
  localStorage.setItem(KEYS.currency, currency)
  if (state.cart && state.cart.region_id !== region().id) {
    await sdk.store.cart.update(state.cart.id, { region_id: region().id })
    await refreshCart()
  }
  applyLanguage()
  await route()
}

async function shopPage() {
  show("shop")
  await renderProducts()
  renderCart()
  $("#checkout-button").onclick = () => (location.href = "/checkout")
  ready()
}

/* ---------------------------------------------------------------- checkout */

function renderSummary() {
  const cart = state.cart
  const list = $("#summary-items")
  list.replaceChildren()
  for (const item of cart.items || []) {
    const li = document.createElement("li")
    li.textContent = `${item.quantity}× ${item.product_title || item.title} — ${money(item.total ?? item.subtotal)}`
    list.append(li)
  }
  $("#summary-subtotal").textContent = money(cart.item_subtotal ?? cart.subtotal)
  $("#summary-shipping").textContent = cart.shipping_methods?.length ? money(cart.shipping_total) : "—"
  $("#summary-tax").textContent = money(cart.tax_total)
  $("#summary-total").textContent = money(cart.total)
  for (const el of document.querySelectorAll(".pay-amount")) el.textContent = money(cart.total)
}

function fillAddressForm() {
  const cart = state.cart
  const a = cart.shipping_address || {}
  const select = $("#country")
  select.replaceChildren()
  const countries = cart.region?.countries || region()?.countries || []
  for (const c of countries) {
    const o = document.createElement("option")
    o.value = c.iso_2
    o.textContent = c.display_name || c.iso_2.toUpperCase()
    select.append(o)
  }
  $("#email").value = cart.email || ""
  $("#first-name").value = a.first_name || ""
  $("#last-name").value = a.last_name || ""
  $("#address-1").value = a.address_1 || ""
  $("#city").value = a.city || ""
  $("#postal-code").value = a.postal_code || ""
  $("#phone").value = a.phone || ""
  if (a.country_code && countries.some((c) => c.iso_2 === a.country_code)) select.value = a.country_code
}

async function showShipping() {
  const { shipping_options } = await sdk.store.fulfillment.listCartOptions({ cart_id: state.cart.id })
  const box = $("#shipping-options")
  box.replaceChildren()
  const chosen = state.cart.shipping_methods?.[0]?.shipping_option_id
  shipping_options.forEach((o, i) => {
    const label = document.createElement("label")
    label.className = "choice"
    label.innerHTML = `<input type="radio" name="shipping_option" data-testid="shipping-option" required> <span></span>`
    const input = label.querySelector("input")
    input.value = o.id
    input.id = `shipping-option-${i}`
    input.checked = chosen ? chosen === o.id : i === 0
    label.querySelector("span").textContent = `${o.name} — ${money(o.amount ?? o.calculated_price?.calculated_amount)}`
    box.append(label)
  })
  $("#shipping-form").hidden = false
}

async function showPayment({ message } = {}) {
  const { payment_providers } = await sdk.store.payment.listPaymentProviders({ region_id: state.cart.region_id })
  const ids = payment_providers.map((p) => p.id)
  for (const [input, id] of [
    [$("#pay-checkout"), CHECKOUT],
    [$("#pay-transfer"), TRANSFER],
  ]) {
    const available = ids.includes(id)
    input.disabled = !available
    input.closest("label").classList.toggle("unavailable", !available)
    input.closest("label").title = available ? "" : t("providerMissing")
  }
  $("#payment-form").hidden = false
  renderSummary()
  if (message) showError(message)
  $("#payment-form").scrollIntoView({ behavior: "smooth", block: "start" })
}

async function loadBanks() {
  const { bank_groups } = await sdk.client.fetch("/store/odeme/banks")
  const box = $("#bank-list")
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

function onPaymentChoice() {
  const choice = document.querySelector('input[name="payment"]:checked')?.value
  $("#checkout-panel").hidden = choice !== CHECKOUT
  $("#transfer-panel").hidden = choice !== TRANSFER
  if (choice === TRANSFER && !$("#bank-list").children.length) busy(null, loadBanks)
  if (choice === TRANSFER && !$("#payer-name").value && state.cart.shipping_address) {
    const a = state.cart.shipping_address
    $("#payer-name").value = [a.first_name, a.last_name].filter(Boolean).join(" ")
  }
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
async function payWithCheckout() {
  const session = await paymentSession(CHECKOUT)
  const cartId = state.cart.id
  const { form } = await sdk.client.fetch(`/store/odeme/payment-sessions/${session.id}/form`, {
    method: "POST",
    body: { cart_id: cartId },
  })
  localStorage.setItem(KEYS.payment, JSON.stringify({ provider: CHECKOUT, session_id: session.id, cart_id: cartId }))
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
async function payWithTransfer() {
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

async function checkoutPage() {
  if (!state.cart?.items?.length) return (location.href = "/")
  show("checkout")
  renderSummary()
  fillAddressForm()
  if (state.cart.email && state.cart.shipping_address) await showShipping()
  if (state.cart.shipping_methods?.length) await showPayment({ message: params.get("message") || undefined })

  $("#address-form").onsubmit = (ev) => {
    ev.preventDefault()
    busy($("#address-submit"), async () => {
      const f = new FormData(ev.target)
      const address = {
        first_name: f.get("first_name"),
        last_name: f.get("last_name"),
        address_1: f.get("address_1"),
        city: f.get("city"),
        postal_code: f.get("postal_code"),
        country_code: f.get("country_code"),
        phone: f.get("phone") || undefined,
      }
      await sdk.store.cart.update(state.cart.id, { email: f.get("email"), shipping_address: address, billing_address: address })
      await refreshCart()
      renderSummary()
      await showShipping()
    })
  }
  $("#shipping-form").onsubmit = (ev) => {
    ev.preventDefault()
    busy($("#shipping-submit"), async () => {
      const option = document.querySelector('input[name="shipping_option"]:checked')
      if (!option) throw new Error(t("stepShipping"))
      await sdk.store.cart.addShippingMethod(state.cart.id, { option_id: option.value })
      await refreshCart()
      await showPayment()
    })
  }
  for (const input of document.querySelectorAll('input[name="payment"]')) input.onchange = onPaymentChoice
  $("#sandbox-result-label").hidden = config.mode !== "sandbox"
  $("#checkout-pay-button").onclick = () => busy($("#checkout-pay-button"), payWithCheckout)
  $("#transfer-submit").onclick = () => busy($("#transfer-submit"), payWithTransfer)
  ready()
}

/* ---------------------------------------------------------------- session status, completion */

async function sessionStatus(sessionId, cartId) {
  const { payment_session } = await sdk.client.fetch(`/store/odeme/payment-sessions/${sessionId}`, { query: { cart_id: cartId } })
  return payment_session
}

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

async function returnPage() {
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

/* ---------------------------------------------------------------- transfer waiting page */

async function transferPage() {
  show("transfer")
  const sessionId = params.get("session_id")
  const cartId = params.get("cart_id")
  const orderId = params.get("order_id")
  let displayId = ""
  if (orderId) {
    const { order } = await sdk.store.order.retrieve(orderId, { fields: "id,display_id,total,currency_code" }).catch(() => ({}))
    displayId = order ? `#${order.display_id}` : ""
  }
  $("#transfer-order").textContent = displayId
  let trackingNo = null
  const settle = (result, button) =>
    busy(button, async () => {
      if (!trackingNo) throw new Error("No transfer tracking number yet")
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
  $("#copy-iban").onclick = async () => {
    await navigator.clipboard?.writeText($("#transfer-iban").textContent.replace(/\s+/g, "")).catch(() => {})
    $("#copy-iban").textContent = t("copied")
  }

  let done = false
  async function poll() {
    const s = await sessionStatus(sessionId, cartId)
    trackingNo = s.tracking_no
    $("#transfer-bank").textContent = s.bank_name || ""
    $("#transfer-holder").textContent = s.account_holder || ""
    $("#transfer-iban").textContent = s.iban_display || s.iban || ""
    $("#transfer-amount").textContent = s.amount ? money(s.amount, s.currency) : ""
    $("#transfer-reference").textContent = s.reference || sessionId
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
      showError(`${t("paymentFailed")} (${s.state})`)
    }
  }
  while (!done) {
    await poll().catch((e) => showError(errorText(e)))
    ready()
    if (!done) await sleep(3000)
  }
}

/* ---------------------------------------------------------------- confirmation */

async function confirmationPage() {
  show("confirmation")
  const { order } = await sdk.store.order.retrieve(params.get("order_id"), {
    fields: "id,display_id,email,total,currency_code,payment_status,status",
  })
  $("#order-display-id").textContent = `#${order.display_id}`
  $("#order-email").textContent = order.email || ""
  $("#order-total").textContent = money(order.total, order.currency_code)
  $("#order-payment-status").textContent = t(`payment_${order.payment_status}`)
  $("#order-payment-status").dataset.status = order.payment_status
  ready()
}

/* ---------------------------------------------------------------- boot */

async function route() {
  const path = location.pathname.replace(/\/+$/, "") || "/"
  if (path === "/checkout/return") return returnPage()
  if (path === "/checkout/transfer") return transferPage()
  if (path === "/order/confirmed") return confirmationPage()
  await loadCart()
  if (state.cart?.currency_code) state.currency = state.cart.currency_code.toUpperCase()
  applyLanguage()
  if (path === "/checkout") return checkoutPage()
  return shopPage()
}

for (const b of document.querySelectorAll("[data-lang]")) {
  b.onclick = () => {
    state.lang = b.dataset.lang
    localStorage.setItem(KEYS.lang, state.lang)
    applyLanguage()
    if (!$("#view-shop").hidden) busy(null, shopPage)
    else if (!$("#view-checkout").hidden) renderSummary()
  }
}
for (const b of document.querySelectorAll("[data-currency]")) b.onclick = () => busy(b, () => setCurrency(b.dataset.currency))
$("#mode-label").textContent = `${config.mode}${config.emulator ? " · emulator" : ""}`

try {
  await loadRegions()
  applyLanguage()
  await route()
} catch (e) {
  console.error(e)
  showError(errorText(e))
  ready()
}
