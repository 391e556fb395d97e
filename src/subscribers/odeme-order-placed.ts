import type { SubscriberArgs, SubscriberConfig } from "@medusajs/framework"
import { OrderWorkflowEvents } from "@medusajs/framework/utils"
import { odemeModule } from "../modules/odeme/resolve"
import { odemeSessionsOfOrder } from "../workflows/orders/sessions-of-order"

/**
 * An order was placed: its payments name it from now on. An API transfer's
 * order waits days for the money with nothing else to link them, and what
 * Admin lists about it (the awaiting transfers, a check that keeps failing,
 * money that arrives after the transfer expired) must name the order, not an
 * internal session id.
 */
export default async function odemeOrderPlaced({ event, container }: SubscriberArgs<{ id: string }>) {
  const { cartId, sessionIds } = await odemeSessionsOfOrder(container, event.data.id)
  await odemeModule(container).nameOrder(sessionIds, cartId, event.data.id)
}

export const config: SubscriberConfig = {
  event: OrderWorkflowEvents.PLACED,
}
