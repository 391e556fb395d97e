import type { SubscriberArgs, SubscriberConfig } from "@medusajs/framework"
import { ContainerRegistrationKeys, MathBN, Modules, OrderWorkflowEvents } from "@medusajs/framework/utils"
import { refundPaymentsWorkflow } from "@medusajs/medusa/core-flows"
import { odemeModule } from "../lib/odeme-module"
import { applyServiceAnswer } from "../lib/payment-state/apply-service-answer"
import { settleLockKey } from "../lib/payment-state/medusa-side"

type Amount = { amount: unknown }
type CanceledOrder = {
  payment_collections?: Array<{
    payment_sessions?: Array<{ id: string; provider_id: string }>
    payments?: Array<{ id: string; payment_session_id: string; captures?: Amount[]; refunds?: Amount[] }>
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
 * the canceled order is refunded in Medusa (the provider records the refund
 * as money to pay back in the merchant panel).
 */
export default async function odemeOrderCanceled({ event, container }: SubscriberArgs<{ id: string }>) {
  const odeme = odemeModule(container)
  const locking = container.resolve(Modules.LOCKING)
  const sessions = await odemeSessionsOf(container, event.data.id)
  for (const sessionId of sessions) {
    await locking.execute(
      settleLockKey(sessionId),
      async () => {
        const row = await odeme.getPayment(sessionId)
        if (!row) return
        // The item that may follow names its order.
        if (row.order_id !== event.data.id) await odeme.updatePaymentDetails(sessionId, { order_id: event.data.id })
        const payment = (await paymentsOf(container, event.data.id)).find((p) => p.payment_session_id === sessionId)
        const captured = sumOf(payment?.captures)
        const owed = MathBN.sub(captured, sumOf(payment?.refunds))
        if (payment && MathBN.gt(owed, 0)) {
          try {
            await refundPaymentsWorkflow(container).run({ input: [{ payment_id: payment.id, amount: owed, note: "Captured while the order was being canceled" }] })
          } catch {
            // Refunds refused in Medusa (`refunds: "reject"`): the money is still a refund to make by hand.
            await odeme.recordRefund({ session_id: sessionId, medusa_refund_id: null, amount: row.charged_amount ?? row.amount, currency: row.charged_currency ?? row.currency })
          }
        }
        await applyServiceAnswer(container, sessionId, { kind: "order_canceled", uuid: row.service_uuid, captured: MathBN.gt(captured, 0) }, { act: false })
      },
      { timeout: 30 }
    )
  }
}

async function odemeSessionsOf(container: SubscriberArgs["container"], orderId: string): Promise<string[]> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({
    entity: "order",
    fields: ["id", "payment_collections.payment_sessions.id", "payment_collections.payment_sessions.provider_id"],
    filters: { id: orderId },
  })
  return ((data[0] as CanceledOrder | undefined)?.payment_collections ?? [])
    .flatMap((c) => c.payment_sessions ?? [])
    .filter((s) => s.provider_id.startsWith("pp_odeme-"))
    .map((s) => s.id)
}

async function paymentsOf(container: SubscriberArgs["container"], orderId: string) {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({
    entity: "order",
    fields: [
      "payment_collections.payments.id",
      "payment_collections.payments.payment_session_id",
      "payment_collections.payments.captures.amount",
      "payment_collections.payments.refunds.amount",
    ],
    filters: { id: orderId },
  })
  return ((data[0] as CanceledOrder | undefined)?.payment_collections ?? []).flatMap((c) => c.payments ?? [])
}

function sumOf(xs: Amount[] | undefined) {
  return (xs ?? []).reduce((acc, x) => MathBN.add(acc, MathBN.convert(x.amount as never)), MathBN.convert(0))
}

export const config: SubscriberConfig = {
  event: OrderWorkflowEvents.CANCELED,
}
