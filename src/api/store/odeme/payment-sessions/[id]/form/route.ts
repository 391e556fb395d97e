import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { ContainerRegistrationKeys, MedusaError } from "@medusajs/framework/utils"
import { checkoutFormFor } from "../../../../../../lib/checkout-form"
import { cartBusyAnswer, isCartBusy, underCartLock } from "../../../../../../workflows/settle/lock"
import { odemeModule } from "../../../../../../modules/odeme/resolve"
import { odemeError, unpayableError } from "../../../../../../lib/medusa-errors"
import { findOwnedSession, refuseUnpayable, sessionNotFound } from "../../../../../utils/owned-session"
import type { StoreCreateOdemeCheckoutFormType } from "../../../validators"

/**
 * POST /store/odeme/payment-sessions/:id/form { cart_id } (or, for an order's
 * balance, { payment_collection_id, order_id }): a freshly signed
 * Quick Checkout form (new `ts`), for the storefront to post right away, so
 * a signature older than the service's 30-minute window is never sent.
 */
export async function POST(req: MedusaRequest<StoreCreateOdemeCheckoutFormType>, res: MedusaResponse) {
  const session = await findOwnedSession(req, req.params.id, req.validatedBody)
  if (session.provider_id !== "pp_odeme-checkout_odeme" && !session.provider_id.startsWith("pp_odeme-checkout_")) {
    throw odemeError(MedusaError.Types.INVALID_DATA, "odeme.invalid_session_data", "Only Quick Checkout sessions have a form to post.")
  }
  const odeme = odemeModule(req.scope)
  // Under the cart's lock, which the cancel of an abandoned order holds from its check to its commit: a form is
  // either noted before that check (the order then waits for it) or refused for the order canceled.
  const row = await underCartLock(req.scope, session.cart_id, async () => {
    await refuseUnpayable(req.scope, session)
    const row = await odeme.getPayment(session.id)
    if (!row) throw sessionNotFound()
    if (row.status !== "pending") throw unpayableError(row.status, MedusaError.Types.NOT_ALLOWED)
    await odeme.noteFormSigned(session.id)
    return row
  }).catch((err) => {
    if (isCartBusy(err)) return null
    throw err
  })
  // Answered here: Medusa's error handler would put its generic text in place of the code the storefront translates.
  if (!row) {
    res.status(409).json(cartBusyAnswer())
    return
  }
  // An order's balance has an order number the shopper knows; a checkout's order does not exist yet.
  const orderNumber = session.order_id ? await displayId(req, session.order_id) : null
  res.json({
    form: checkoutFormFor(odeme.odemeOptions, {
      session_id: row.session_id,
      reference: row.reference,
      amount: row.amount,
      currency: row.currency,
      order_number: orderNumber,
    }),
  })
}

async function displayId(req: MedusaRequest, orderId: string): Promise<number | null> {
  const query = req.scope.resolve(ContainerRegistrationKeys.QUERY)
  const {
    data: [order],
  } = await query.graph({ entity: "order", fields: ["display_id"], filters: { id: orderId } })
  return (order as { display_id?: number } | undefined)?.display_id ?? null
}
