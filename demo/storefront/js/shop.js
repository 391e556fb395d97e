/** The shop page (/): products of the current region and the cart. */
import { $, sdk } from "/js/core.js"
import { ensureCart, refreshCart, region, renderCart } from "/js/cart.js"
import { busy, money, ready, show, t } from "/js/ui.js"

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

export async function shopPage() {
  show("shop")
  await renderProducts()
  renderCart()
  $("#checkout-button").onclick = () => (location.href = "/checkout")
  ready()
}
