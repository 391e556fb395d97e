import type { Logger, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, MathBN, Modules } from "@medusajs/framework/utils"
import { createOrUpdateOrderPaymentCollectionWorkflow } from "@medusajs/medusa/core-flows"
import type { OdemePaymentRow } from "../../modules/odeme/service"
import { errorText } from "../../lib/error-text"
import { asksForTheRest, restMayBeOwed } from "../../lib/order-rules"
import { owedBy, type OrderSummary, type SettleRead } from "../settle/read-model"
import { odemeModule } from "../../modules/odeme/resolve"

/**
 * A balance paid with a form signed before a later edit raised it, or an API transfer's awaiting order edited
 * while the money was on its way (Medusa raises the open collection's amount and keeps the session at its old
 * one, which is what the customer was asked to send), leaves its collection partly paid, which Medusa's Admin
 * offers no payment link for, and a customer who opens the old link again is refused as already paid: the rest
 * could not be asked for. Medusa's own workflow for an order's balance closes a partly authorized collection as
 * partly captured and opens a new one for what is still owed (when: lib/order-rules.ts), under the order's lock.
 * Also run when settle finds the payment settled, to catch up a run that failed (a failure is logged: the
 * payment itself is settled, and the order shows what it still owes).
 */
export async function askForTheRest(
  container: MedusaContainer,
  read: Pick<SettleRead, "order_id" | "order_canceled" | "collection_id" | "collection_status">,
  payment: OdemePaymentRow
): Promise<void> {
  const sessionId = payment.session_id
  if (!restMayBeOwed(read)) {
    // Listed before, now settled otherwise (the order canceled, the rest asked for by hand): the item goes.
    return forgetRestNotAsked(container, payment)
  }
  const orderId = read.order_id!
  const collectionId = read.collection_id!
  await container
    .resolve(Modules.LOCKING)
    .execute(
      `odeme:order:${orderId}`,
      async () => {
        const { data } = await container.resolve(ContainerRegistrationKeys.QUERY).graph({
          entity: "order",
          fields: ["status", "summary", "payment_collections.id", "payment_collections.status"],
          filters: { id: orderId },
        })
        const order = data[0] as { status?: string; summary?: OrderSummary; payment_collections?: Array<{ id: string; status: string }> } | undefined
        const owed = owedBy(order?.summary)
        const facts = {
          order_status: order?.status ?? null,
          owes: owed === null ? null : MathBN.gt(owed, 0),
          collections: order?.payment_collections ?? [],
          collection_id: collectionId,
        }
        if (!asksForTheRest(facts)) return
        await createOrUpdateOrderPaymentCollectionWorkflow(container).run({ input: { order_id: orderId } })
      },
      { timeout: 30 }
    )
    .then(
      // Not guarded by the row as read before the lock: another settle may have listed it since (a write only if so).
      () => odemeModule(container).noteMedusaRefusal(sessionId, "rest_not_asked", null),
      async (err: unknown) => {
        // The payment is captured and on its order. Not a settle failure: counting it as one would list a captured
        // payment as "Medusa keeps refusing the order". Its own item; Ask Odeme now settles again, which runs this again.
        const reason = errorText(err)
        container
          .resolve<Logger>(ContainerRegistrationKeys.LOGGER)
          .warn(
            `medusa-payment-odeme: payment ${sessionId} is on order ${orderId}, but no payment collection could be opened for what the order still owes: ${reason}`
          )
        await odemeModule(container).noteMedusaRefusal(sessionId, "rest_not_asked", { order_id: orderId, reason })
      }
    )
}

/**
 * The edited order's rest no longer needs asking for: its item goes. Only when the payment, as read, lists it, so
 * the settle of every other payment writes nothing here.
 */
export async function forgetRestNotAsked(container: MedusaContainer, payment: OdemePaymentRow): Promise<void> {
  if ((payment.metadata as Record<string, unknown> | null)?.rest_not_asked)
    await odemeModule(container).noteMedusaRefusal(payment.session_id, "rest_not_asked", null)
}
