import type { Logger, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { cancelOrderWorkflow } from "@medusajs/medusa/core-flows"
import type { OdemePaymentRow } from "../../modules/odeme/service"
import { errorText } from "../../lib/error-text"
import { notCanceledItem, stillUnpaid, unpaidOrderAction } from "../../lib/order-rules"
import { medusaState } from "../settle/read-model"
import { withSettleLock } from "../settle/lock"
import { odemeModule } from "../../modules/odeme/resolve"

/** An API transfer that failed or expired: its "awaiting" order is canceled when the merchant wants that (when: lib/order-rules.ts). */
export async function cancelUnpaidOrder(container: MedusaContainer, payment: OdemePaymentRow, enabled: boolean): Promise<void> {
  if (!enabled || payment.flow !== "transfer_api") return
  const { orderId, cartId, orderStatus } = await medusaState(container, payment.session_id)
  const action = unpaidOrderAction({ enabled, flow: payment.flow, order_id: orderId, cart_id: cartId, order_status: orderStatus })
  if (action.do === "nothing") return
  if (action.do === "list") return orderNotCanceled(container, payment.session_id, orderId!, action.reason)
  try {
    // Under the settle lock, on the payment as it is now (lib/order-rules.ts, stillUnpaid). The cancel's own
    // order.canceled subscriber takes this lock after the workflow has returned.
    await withSettleLock(container, payment.session_id, async () => {
      const now = await odemeModule(container).getPayment(payment.session_id)
      if (!stillUnpaid(payment.status, now?.status)) return
      await cancelOrderWorkflow(container).run({ input: { order_id: orderId!, no_notification: false } })
    })
  } catch (err) {
    // Shipped before the money came, say: the merchant decides, from an item.
    await orderNotCanceled(container, payment.session_id, orderId!, err)
  }
}

/** An unpaid transfer's order that was not canceled (Medusa refused, or a person completed it): logged, and listed until resolved. */
export async function orderNotCanceled(container: MedusaContainer, sessionId: string, orderId: string, err: unknown): Promise<void> {
  const reason = errorText(err)
  const odeme = odemeModule(container)
  // Written first, then the order read: a cancel committed before the read is seen here, and a later one runs the
  // order.canceled subscriber after this write, which takes the item away. Read first, a cancel between the read
  // and the write would leave the item on a canceled order.
  await odeme.noteMedusaRefusal(sessionId, "order_not_canceled", { order_id: orderId, reason })
  const { data } = await container.resolve(ContainerRegistrationKeys.QUERY).graph({ entity: "order", fields: ["status"], filters: { id: orderId } })
  // Canceled meanwhile (by a person, or by another check of the same transfer): nothing to list.
  if (notCanceledItem((data[0] as { status?: string } | undefined)?.status) === "forget") return odeme.forgetOrderNotCanceled(orderId)
  container
    .resolve<Logger>(ContainerRegistrationKeys.LOGGER)
    .warn(`medusa-payment-odeme: could not cancel order ${orderId}, whose transfer ${sessionId} was not paid: ${reason}`)
}
