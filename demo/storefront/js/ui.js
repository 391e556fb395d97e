/** Labels, prices, banners and views of the demo storefront. */
import { messages } from "/i18n.js"
import { $, odeme, state } from "/js/core.js"

export const t = (key) => messages[state.lang][key] ?? messages.tr[key] ?? key

let languageListener = null

/** What the current page renders again, in the new language, when the shopper switches (texts set from code). */
export function onLanguageChange(fn) {
  languageListener = fn
}

export function applyLanguage() {
  document.documentElement.lang = state.lang
  document.title = t("title")
  for (const el of document.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n)
  for (const b of document.querySelectorAll("[data-lang]")) b.classList.toggle("active", b.dataset.lang === state.lang)
  for (const b of document.querySelectorAll("[data-currency]")) b.classList.toggle("active", b.dataset.currency === state.currency)
  // A failure shown by its code follows the language; a text written in the other one would not.
  const banner = $("#error-banner")
  if (banner.dataset.code) banner.textContent = bannerText(odeme.odemeFailureMessage(banner.dataset.code, state.lang))
  languageListener?.()
}

/** The page's locale for numbers and dates: tr-TR ("1.250,00 ₺", "27 Kasım 2026 14:30") or en-GB. */
export const locale = () => (state.lang === "tr" ? "tr-TR" : "en-GB")

export function money(amount, currency = state.cart?.currency_code || state.currency) {
  if (amount === null || amount === undefined) return ""
  return new Intl.NumberFormat(locale(), {
    style: "currency",
    currency: currency.toUpperCase(),
  }).format(Number(amount))
}

/**
 * What the shopper reads for a failure: the plugin's errors by their stable code in the
 * page's language; anything else (Medusa's English, a network failure) as its own text in
 * English and as a Turkish sentence on a Turkish page, never English there.
 */
export function errorText(e) {
  if (e && typeof e === "object" && !e.message && typeof e.error === "object") e = e.error
  return odeme.odemeErrorMessage(e, state.lang, t("errorGeneric"))
}

/** A date and time in the page's language, in the shop's time zone (Türkiye). */
export function dateTime(iso) {
  const d = new Date(iso)
  if (Number.isNaN(d.getTime())) return ""
  return new Intl.DateTimeFormat(locale(), { dateStyle: "full", timeStyle: "short", timeZone: "Europe/Istanbul" }).format(d)
}

/** A country's name in the page's language ("Türkiye" in Turkish), from its ISO code. */
export function countryName(iso2, fallback) {
  try {
    return new Intl.DisplayNames([locale()], { type: "region" }).of(String(iso2).toUpperCase()) || fallback
  } catch {
    return fallback
  }
}

const bannerText = (message) => `${t("error")}: ${message}`

export function showError(message) {
  const el = $("#error-banner")
  delete el.dataset.code
  el.textContent = message ? bannerText(message) : ""
  el.hidden = !message
  if (message) el.scrollIntoView({ behavior: "smooth", block: "nearest" })
}

/**
 * A failure by its code (a return's reason, `not_completed`, or one of the plugin's error
 * codes), shown in the page's language and shown again in the other one when the shopper
 * switches (applyLanguage).
 */
export function showFailure(code) {
  showError(odeme.odemeFailureMessage(code, state.lang))
  $("#error-banner").dataset.code = code
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
    const code = odeme.odemeErrorCode(e)
    if (code) showFailure(code)
    else showError(errorText(e))
  } finally {
    if (button) button.disabled = false
  }
}
