import type { SubscriberArgs, SubscriberConfig } from "@medusajs/framework"
import { OrderWorkflowEvents } from "@medusajs/framework/utils"
import { odemeModule } from "../lib/odeme-module"
import { odemeSessionsOfOrder } from "../lib/order-sessions"
import { applyServiceAnswer } from "../lib/payment-state/apply-service-answer"
import { giveBackCapture, withSettleLock } from "../lib/payment-state/medusa-side"

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
  const odeme = odemeModule(container)
  const { sessionIds: sessions } = await odemeSessionsOfOrder(container, event.data.id)
  for (const sessionId of sessions) {
    await withSettleLock(container, sessionId, async () => {
      const row = await odeme.getPayment(sessionId)
      if (!row) return
      // The item that may follow names its order.
      if (row.order_id !== event.data.id) await odeme.updatePaymentDetails(sessionId, { order_id: event.data.id })
      const captured = await giveBackCapture(container, sessionId)
      await applyServiceAnswer(container, sessionId, { kind: "order_canceled", uuid: row.service_uuid, captured }, { act: false })
    })
  }
}

export const config: SubscriberConfig = {
  event: OrderWorkflowEvents.CANCELED,
}
