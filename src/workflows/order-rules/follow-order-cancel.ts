import type { MedusaContainer } from "@medusajs/framework/types"
import { applyServiceAnswer } from "../payment-state/apply-service-answer"
import { withSettleLock } from "../settle/lock"
import { giveBackCapture } from "./give-back"
import { odemeModule } from "../../modules/odeme/resolve"

/**
 * Follows a canceled order for one of its sessions: under the settle lock (so
 * a capture already under way has finished), the payment names the order, what
 * was captured onto it is given back (`giveBackCapture`), and the one writer
 * is told (`order_canceled`). The order.canceled subscriber calls it, and the
 * reconciler for a paid payment whose order it finds canceled (the event was
 * lost). Repeated, it changes nothing: nothing is held any more.
 */
export function followOrderCancel(container: MedusaContainer, sessionId: string, orderId: string | null): Promise<void> {
  const odeme = odemeModule(container)
  return withSettleLock(container, sessionId, async () => {
    const row = await odeme.getPayment(sessionId)
    if (!row) return
    // The item that may follow names its order.
    if (orderId && row.order_id !== orderId) await odeme.updatePaymentDetails(sessionId, { order_id: orderId })
    const captured = await giveBackCapture(container, sessionId)
    await applyServiceAnswer(container, sessionId, { kind: "order_canceled", uuid: row.service_uuid, captured }, { act: false })
  })
}
