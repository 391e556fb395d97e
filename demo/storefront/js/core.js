/**
 * What every part of the demo storefront shares: its config, the js-sdk client,
 * the provider ids, the localStorage keys and the page state.
 */
import Medusa, { odeme } from "/vendor/medusa-js-sdk.js"

/** medusa-payment-odeme/storefront, bundled with the SDK: error codes and their TR/EN texts, completeWhenPaid. */
export { odeme }

export const CHECKOUT = "pp_odeme-checkout_odeme"
export const TRANSFER = "pp_odeme-transfer_odeme"
export const KEYS = { lang: "odeme-demo:lang", currency: "odeme-demo:currency", cart: "odeme-demo:cart", payment: "odeme-demo:payment" }

export const config = await (await fetch("/config.json")).json()
export const sdk = new Medusa({ baseUrl: config.backendUrl, publishableKey: config.publishableKey })

export const $ = (sel) => document.querySelector(sel)
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms))
export const params = new URLSearchParams(location.search)

export const state = {
  lang: localStorage.getItem(KEYS.lang) || "tr",
  currency: localStorage.getItem(KEYS.currency) || "TRY",
  regions: {},
  cart: null,
}
