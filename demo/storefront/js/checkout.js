/** The checkout page (/checkout): address → shipping → payment, with the order summary. */
import { $, CHECKOUT, TRANSFER, config, odeme, params, sdk, state } from "/js/core.js"
import { refreshCart, region } from "/js/cart.js"
import { loadBanks, payWithCheckout, payWithTransfer } from "/js/payment.js"
import { busy, countryName, money, ready, show, showFailure, t } from "/js/ui.js"

export function renderSummary() {
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
    // Medusa's display_name is English ("Turkey"): the page's language names it ("Türkiye").
    o.textContent = countryName(c.iso_2, c.display_name || c.iso_2.toUpperCase())
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

/** `failure`: why the shopper is back from the return page, as its code (shown in the page's language, again after a switch). */
async function showPayment({ failure } = {}) {
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
  if (odeme.isOdemeFailureCode(failure)) showFailure(failure)
  $("#payment-form").scrollIntoView({ behavior: "smooth", block: "start" })
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

export async function checkoutPage() {
  if (!state.cart?.items?.length) return (location.href = "/")
  show("checkout")
  renderSummary()
  fillAddressForm()
  if (state.cart.email && state.cart.shipping_address) await showShipping()
  if (state.cart.shipping_methods?.length) await showPayment({ failure: params.get("reason") })

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
