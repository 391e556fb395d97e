import type { SubscriberArgs, SubscriberConfig } from "@medusajs/framework"
import { OrderWorkflowEvents } from "@medusajs/framework/utils"
import { followOrderCancel } from "../workflows/order-rules/follow-order-cancel"
import { odemeModule } from "../modules/odeme/resolve"
import { odemeSessionsOfOrder } from "../workflows/orders/sessions-of-order"

/**
 * An order was canceled (by an admin, or the plugin's cancel of an expired
 * transfer). With a transfer still awaited Medusa has no Payment to cancel,
 * so it never calls the provider: the plugin follows the order here, and
 * money that arrives later is a late success to give back, never a capture.
 *
 * Each session is taken under the settle lock, so a capture that was already
 * under way when the order was canceled has finished: what it captured onto
 * the canceled order is given back (`giveBackCapture`; settling does the same
 * when it sees the cancel after its capture).
 */
export default async function odemeOrderCanceled({ event, container }: SubscriberArgs<{ id: string }>) {
  // A person canceled it after the plugin could not (or another check did): that item is done. First, so a follow
  // that fails (its lock timed out, say) does not leave it on the canceled order.
  await odemeModule(container).forgetOrderNotCanceled(event.data.id)
  const { sessionIds } = await odemeSessionsOfOrder(container, event.data.id)
  for (const sessionId of sessionIds) await followOrderCancel(container, sessionId, event.data.id)
}

export const config: SubscriberConfig = {
  event: OrderWorkflowEvents.CANCELED,
}
