/**
 * The demo storefront: plain ES modules on top of @medusajs/js-sdk (bundled by
 * scripts/demo.js). This entry wires the header and routes; each page lives in js/.
 * Pages (all served as index.html):
 *   /                   products + cart (js/shop.js, js/cart.js)
 *   /checkout           address → shipping → payment (Quick Checkout or Havale/EFT); ?reason=<code> after a failed
 *                       payment (a code of odeme.odemeFailureMessage, never text) (js/checkout.js, js/payment.js)
 *   /checkout/return    back from the payment service (?status=paid|pending|failed&session_id[&reason][&returned=cancel]) (js/return.js)
 *   /checkout/transfer  transfer instructions, polls the session status (?session_id&cart_id&order_id) (js/transfer.js)
 *   /order/confirmed    order confirmation (?order_id) (js/confirmation.js)
 *   /payment-collection/:id  what an edited order still owes, paid with either provider: Admin's
 *                       "Copy payment link" (?order_id[&status&session_id]) (js/balance.js)
 * Shared: js/core.js (config, sdk, state), js/ui.js (labels, money, banners, busy).
 */
import { $, KEYS, config, sdk, state } from "/js/core.js"
import { loadCart, loadRegions, refreshCart, region, renderCartCount } from "/js/cart.js"
import { checkoutPage, renderSummary } from "/js/checkout.js"
import { balancePage } from "/js/balance.js"
import { confirmationPage } from "/js/confirmation.js"
import { returnPage } from "/js/return.js"
import { shopPage } from "/js/shop.js"
import { transferPage } from "/js/transfer.js"
import { applyLanguage, busy, errorText, ready, showError } from "/js/ui.js"

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

async function route() {
  const path = location.pathname.replace(/\/+$/, "") || "/"
  if (path === "/checkout/transfer") return transferPage()
  if (path === "/order/confirmed") return confirmationPage()
  if (path.startsWith("/payment-collection/")) {
    applyLanguage()
    return balancePage()
  }
  await loadCart()
  renderCartCount()
  if (state.cart?.currency_code) state.currency = state.cart.currency_code.toUpperCase()
  applyLanguage()
  // The return page too: while the payment is confirmed the cart still holds its items (the header counts them).
  if (path === "/checkout/return") return returnPage()
  if (path === "/checkout") return checkoutPage()
  return shopPage()
}

for (const b of document.querySelectorAll("[data-lang]")) {
  b.onclick = () => {
    state.lang = b.dataset.lang
    localStorage.setItem(KEYS.lang, state.lang)
    applyLanguage()
    // The shop renders its products again: not ready (body[data-ready]) until that is done.
    if (!$("#view-shop").hidden) {
      delete document.body.dataset.ready
      // Ready again even when the render failed (busy shows the error), as at the first load.
      busy(null, shopPage).then(ready)
    } else if (!$("#view-checkout").hidden) renderSummary()
  }
}
for (const b of document.querySelectorAll("[data-currency]")) b.onclick = () => busy(b, () => setCurrency(b.dataset.currency))
// The mode is the service's own word (sandbox/live, as in the merchant panel); "emulator" is translated.
$("#mode-label").textContent = config.mode
$("#emulator-label").hidden = !config.emulator

try {
  await loadRegions()
  applyLanguage()
  await route()
} catch (e) {
  console.error(e)
  showError(errorText(e))
  ready()
}
