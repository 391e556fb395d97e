import type { SubscriberArgs, SubscriberConfig } from "@medusajs/framework"
import { ContainerRegistrationKeys, OrderWorkflowEvents } from "@medusajs/framework/utils"
import { odemeModule } from "../lib/odeme-module"
import { applyServiceAnswer } from "../lib/payment-state/apply-service-answer"

type OrderSessions = {
  payment_collections?: Array<{ payment_sessions?: Array<{ id: string; provider_id: string; payment?: { captured_at?: Date | null } | null }> }>
}

/**
 * An order was canceled (by an admin, or the plugin's cancel of an expired
 * transfer). With a transfer still awaited Medusa has no Payment to cancel,
 * so it never calls the provider: the plugin follows the order here, and
 * money that arrives later is a late success to give back, never a capture.
 */
export default async function odemeOrderCanceled({ event, container }: SubscriberArgs<{ id: string }>) {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({
    entity: "order",
    fields: ["id", "payment_collections.payment_sessions.id", "payment_collections.payment_sessions.provider_id", "payment_collections.payment_sessions.payment.captured_at"],
    filters: { id: event.data.id },
  })
  const odeme = odemeModule(container)
  for (const collection of (data[0] as OrderSessions | undefined)?.payment_collections ?? []) {
    for (const session of collection.payment_sessions ?? []) {
      if (!session.provider_id.startsWith("pp_odeme-")) continue
      const row = await odeme.getPayment(session.id)
      if (!row) continue
      // The item that may follow names its order.
      if (row.order_id !== event.data.id) await odeme.updatePaymentDetails(session.id, { order_id: event.data.id })
      await applyServiceAnswer(container, session.id, { kind: "order_canceled", uuid: row.service_uuid, captured: !!session.payment?.captured_at }, { act: false })
    }
  }
}

export const config: SubscriberConfig = {
  event: OrderWorkflowEvents.CANCELED,
}
