import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { outcomeOfOrders } from "../../scripts/lib/cart-outcome"

/** Orders of a cart with their payment state, read through Medusa's query graph. */
export async function ordersOfCart(container: MedusaContainer, cartId: string) {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data: links } = await query.graph({ entity: "order_cart", fields: ["order_id"], filters: { cart_id: cartId } })
  if (!links.length) return []
  const { data: orders } = await query.graph({
    entity: "order",
    fields: [
      "id",
      "status",
      "payment_collections.id",
      "payment_collections.status",
      "payment_collections.payments.id",
      "payment_collections.payments.captured_at",
      "payment_collections.payments.captures.id",
      "payment_collections.payments.captures.amount",
      "payment_collections.payment_sessions.id",
      "payment_collections.payment_sessions.status",
    ],
    filters: { id: links.map((l: { order_id: string }) => l.order_id) },
  })
  return orders as any[]
}

export async function paymentSession(container: MedusaContainer, id: string) {
  const payment = container.resolve(Modules.PAYMENT)
  const [session] = await payment.listPaymentSessions({ id })
  return session
}

/** The provider instance Medusa registered (for calls the 2.21 core flows never make, e.g. getPaymentStatus). */
export function paymentProvider(container: MedusaContainer, providerId: string): any {
  const payment = container.resolve(Modules.PAYMENT) as any
  return payment.paymentProviderService_.retrieveProvider(providerId)
}

export async function odemePayments(container: MedusaContainer) {
  const db = container.resolve(ContainerRegistrationKeys.PG_CONNECTION)
  return db("odeme_payment").select("*")
}

/** Orders, payments and captures of a cart (scripts/lib/cart-outcome.js), through Medusa's query graph. */
export async function cartOutcome(container: MedusaContainer, cartId: string) {
  return outcomeOfOrders(await ordersOfCart(container, cartId))
}
