/** Regions (one per currency) and the cart: loading, creating, refreshing, the cart panel. */
import { $, KEYS, sdk, state } from "/js/core.js"
import { busy, money, t } from "/js/ui.js"

export async function loadRegions() {
  const { regions } = await sdk.store.region.list({ fields: "id,name,currency_code,*countries" })
  for (const r of regions) state.regions[r.currency_code.toUpperCase()] = r
  if (!state.regions[state.currency]) state.currency = Object.keys(state.regions)[0] || "TRY"
}

export const region = () => state.regions[state.currency]

const CART_FIELDS =
  "id,email,currency_code,region_id,completed_at,total,subtotal,item_subtotal,tax_total,shipping_total," +
  "*items,*shipping_address,*shipping_methods,*payment_collection,*payment_collection.payment_sessions,*region,*region.countries"

export async function loadCart() {
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

export async function ensureCart() {
  if (state.cart) return state.cart
  const { cart } = await sdk.store.cart.create({ region_id: region().id }, { fields: CART_FIELDS })
  localStorage.setItem(KEYS.cart, cart.id)
  return (state.cart = cart)
}

export async function refreshCart() {
  if (!state.cart) return null
  const { cart } = await sdk.store.cart.retrieve(state.cart.id, { fields: CART_FIELDS })
  return (state.cart = cart)
}

/** The header's cart count, on every page that has a cart (the checkout too). */
export function renderCartCount() {
  const items = state.cart?.items || []
  $("#cart-count").textContent = String(items.reduce((n, i) => n + i.quantity, 0))
}

export function renderCart() {
  const cart = state.cart
  const items = cart?.items || []
  renderCartCount()
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
