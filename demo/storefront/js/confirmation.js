/** The confirmation page (/order/confirmed?order_id). */
import { $, params, sdk } from "/js/core.js"
import { money, ready, show, t } from "/js/ui.js"

/** A row's value; the row (label and value) is left out when there is none, never a label beside nothing. */
function row(id, text) {
  const dd = $(`#${id}`)
  dd.textContent = text || ""
  dd.hidden = dd.previousElementSibling.hidden = !text
}

export async function confirmationPage() {
  show("confirmation")
  const { order } = await sdk.store.order.retrieve(params.get("order_id"), {
    fields: "id,display_id,email,total,currency_code,payment_status,status",
  })
  row("order-display-id", order.display_id ? `#${order.display_id}` : "")
  row("order-email", order.email)
  row("order-total", money(order.total, order.currency_code))
  row("order-payment-status", t(`payment_${order.payment_status}`))
  $("#order-payment-status").dataset.status = order.payment_status
  // The details only once they are read: while the order loads the page says so instead.
  $("#order-loading").hidden = true
  $("#order-details").hidden = false
  ready()
}
