import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { cancelOrderWorkflow } from "@medusajs/medusa/core-flows"
import type { OdemePaymentRow } from "../../modules/odeme/service"
import { ODEME_SESSION_FIELDS, odemeSessionsOf, type CollectionSessions } from "../../lib/order-sessions"
import { abandonedOrderAsked, abandonedOrderStep, otherPaymentSays } from "../../lib/order-rules"
import { underCartLock } from "../settle/lock"
import { orderNotCanceled } from "./unpaid-order"
import { odemeModule } from "../../modules/odeme/resolve"

/**
 * An API transfer was its order's way to be paid (the customer has its IBAN) until a second tab chose another
 * payment on the order's collection, which made Medusa delete its session (here: `canceled`, still asked about
 * until its deadline). Once the transfer can no longer be paid (failed, or past its deadline) nothing else ends
 * that order: it is canceled as an expired transfer's order is, unless it was paid, a person moved it on, or
 * another of its payments may still be made (lib/order-rules.ts). `wait`: ask again later (another of the
 * plugin's transfers of the order is waiting or of unknown creation, or one of its payments is pending or failed
 * and was started, given a form, returned to or notified about within `transfer.expiryHours`, or has a webhook
 * not yet judged: its customer may be paying it now); `done`: nothing more to do about this order (canceled, or
 * left to the merchant: paid, in review, another provider's live session).
 */
export async function cancelAbandonedOrder(container: MedusaContainer, payment: OdemePaymentRow): Promise<"done" | "wait"> {
  const cfg = odemeModule(container).odemeOptions.transfer
  const asked = abandonedOrderAsked({
    cancel_on_expiry: cfg.cancelOrderOnExpiry,
    flow: payment.flow,
    status: payment.status,
    order_id: payment.order_id,
    cart_id: payment.cart_id,
  })
  if (!asked) return "done"
  // Under the cart's lock, which Medusa's processPaymentWorkflow holds while it captures a payment of this order's
  // collection: a second tab's payment is either captured before this reads it (paid: done) or waits for the cancel
  // and is then given back as a canceled order's; never captured onto an order this is canceling.
  return underCartLock(container, payment.cart_id, () => abandonedOrderLocked(container, payment, payment.order_id!))
}

async function abandonedOrderLocked(container: MedusaContainer, payment: OdemePaymentRow, orderId: string): Promise<"done" | "wait"> {
  const odeme = odemeModule(container)
  const { data } = await container.resolve(ContainerRegistrationKeys.QUERY).graph({
    entity: "order",
    fields: ["id", "status", "cart.id", "payment_collections.status", ...ODEME_SESSION_FIELDS],
    filters: { id: orderId },
  })
  const order = data[0] as
    | { status?: string; cart?: { id: string } | null; payment_collections?: Array<(CollectionSessions & { status: string }) | null> | null }
    | undefined
  const collections = (order?.payment_collections ?? []).filter((c): c is CollectionSessions & { status: string } => !!c)
  const sessions = collections.flatMap((c) => c.payment_sessions ?? []).filter((s) => !!s && s.id !== payment.session_id)
  const step = abandonedOrderStep({
    found: !!order,
    status: order?.status ?? null,
    own_cart: order?.cart?.id === payment.cart_id,
    collection_statuses: collections.map((c) => c.status),
    other_sessions: sessions.map((s) => ({ provider_id: s!.provider_id, status: s!.status ?? null })),
  })
  if (step.do === "done") return "done"
  if (step.do === "list") {
    await orderNotCanceled(container, payment.session_id, orderId, step.reason)
    return "done"
  }
  const others = collections.flatMap((c) => odemeSessionsOf(c).map((s) => s.id)).filter((id) => id !== payment.session_id)
  const since = {
    changed: new Date(Date.now() - odeme.odemeOptions.transfer.expiryHours * 3_600_000),
    // A form is signed for the service's 30-minute window; what its payment makes arrives soon after.
    noted: new Date(Date.now() - RECENT_PAYING_MS),
  }
  for (const r of others.length ? await odeme.getPayments(others) : []) {
    const says = otherPaymentSays({ status: r.status, resolved: !!r.resolved_at })
    if (says === "done" || says === "wait") return says
    // Started or changed within transfer.expiryHours, a form signed, a return or a webhook (not refused) within the
    // last hours, or a webhook not yet judged: its customer may be paying now. (Forms and notifications count for
    // hours, not days: whoever knows the cart's id could otherwise keep the order, and its stock, waiting.)
    if (says === "ask_paying" && (await odeme.maybePaying(r.session_id, since))) return "wait"
  }
  try {
    await cancelOrderWorkflow(container).run({ input: { order_id: orderId, no_notification: false } })
  } catch (err) {
    await orderNotCanceled(container, payment.session_id, orderId, err)
  }
  return "done"
}

/** How long a form signed, a return or a webhook shows a customer who may be paying (the form lives 30 minutes). */
const RECENT_PAYING_MS = 2 * 3_600_000
