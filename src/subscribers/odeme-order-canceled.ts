import type { SubscriberArgs, SubscriberConfig } from "@medusajs/framework"
import { ContainerRegistrationKeys, OrderWorkflowEvents } from "@medusajs/framework/utils"
import { odemeModule } from "../lib/odeme-module"
import { applyServiceAnswer } from "../lib/payment-state/apply-service-answer"
import { giveBackCapture, withSettleLock } from "../lib/payment-state/medusa-side"

type CanceledOrder = {
  payment_collections?: Array<{
    payment_sessions?: Array<{ id: string; provider_id: string }>
    payments?: Array<{ payment_session_id: string | null; provider_id: string }>
  }>
}

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
  const sessions = await odemeSessionsOf(container, event.data.id)
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

async function odemeSessionsOf(container: SubscriberArgs["container"], orderId: string): Promise<string[]> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({
    entity: "order",
    fields: [
      "id",
      "payment_collections.payment_sessions.id",
      "payment_collections.payment_sessions.provider_id",
      "payment_collections.payments.payment_session_id",
      "payment_collections.payments.provider_id",
    ],
    filters: { id: orderId },
  })
  // The payments too: a session Medusa deleted after its payment was captured (the storefront opened another
  // session on the paid cart) is no longer listed, and its payment still holds the money to give back.
  const ids = ((data[0] as CanceledOrder | undefined)?.payment_collections ?? []).flatMap((c) => [
    ...(c.payment_sessions ?? []).filter((s) => s.provider_id.startsWith("pp_odeme-")).map((s) => s.id),
    ...(c.payments ?? []).filter((p) => p.provider_id.startsWith("pp_odeme-") && p.payment_session_id).map((p) => p.payment_session_id!),
  ])
  return [...new Set(ids)]
}

export const config: SubscriberConfig = {
  event: OrderWorkflowEvents.CANCELED,
}
