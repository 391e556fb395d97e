/** The confirmation page (/order/confirmed?order_id). */
import { $, params, sdk } from "/js/core.js"
import { money, ready, show, t } from "/js/ui.js"

export async function confirmationPage() {
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
