/** Labels, prices, banners and views of the demo storefront. */
import { messages } from "/i18n.js"
import { $, state } from "/js/core.js"

export const t = (key) => messages[state.lang][key] ?? messages.tr[key] ?? key

export function applyLanguage() {
  document.documentElement.lang = state.lang
  document.title = t("title")
  for (const el of document.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n)
  for (const b of document.querySelectorAll("[data-lang]")) b.classList.toggle("active", b.dataset.lang === state.lang)
  for (const b of document.querySelectorAll("[data-currency]")) b.classList.toggle("active", b.dataset.currency === state.currency)
}

export function money(amount, currency = state.cart?.currency_code || state.currency) {
  if (amount === null || amount === undefined) return ""
  return new Intl.NumberFormat(state.lang === "tr" ? "tr-TR" : "en-GB", {
    style: "currency",
    currency: currency.toUpperCase(),
  }).format(Number(amount))
}

export function errorText(e) {
  return e?.message || String(e)
}

export function showError(message) {
  const el = $("#error-banner")
  el.textContent = message ? `${t("error")}: ${message}` : ""
  el.hidden = !message
  if (message) el.scrollIntoView({ behavior: "smooth", block: "nearest" })
}

export function showInfo(message) {
  const el = $("#info-banner")
  el.textContent = message || ""
  el.hidden = !message
}

export function show(view) {
  for (const el of document.querySelectorAll(".view")) el.hidden = el.id !== `view-${view}`
  document.body.dataset.view = view
  // The currency (region) can only change while shopping or checking out.
  $("#currency-TRY").parentElement.hidden = !["shop", "checkout"].includes(view)
}

/** Marks the page as rendered (for browser tests): body[data-ready="true"]. */
export const ready = () => (document.body.dataset.ready = "true")

/** Runs an action from a button, disabling it and showing errors in the banner. */
export async function busy(button, fn) {
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
