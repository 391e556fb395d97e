import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { MedusaError, Modules } from "@medusajs/framework/utils"
import { capturePaymentWorkflow } from "@medusajs/medusa/core-flows"
import { findOwnedSession, refuseCanceledOrder } from "../../../../../utils/owned-session"
import type { StoreAuthorizeOdemeBalanceType } from "../../../validators"

/**
 * POST /store/odeme/payment-sessions/:id/authorize { payment_collection_id, order_id }:
 * starts the bank transfer that pays an order's balance (Admin's payment
 * link). A checkout's transfer starts when its cart is completed; a balance
 * has no cart, and Medusa has no store route that authorizes a collection,
 * so this is that step. The session then waits in `pending_authorization`
 * (the IBAN is in the status route's answer) and the poller captures it onto
 * the same order when the service approves it.
 */
export async function POST(req: MedusaRequest<StoreAuthorizeOdemeBalanceType>, res: MedusaResponse) {
  const session = await findOwnedSession(req, req.params.id, req.validatedBody)
  if (!session.provider_id.startsWith("pp_odeme-transfer_")) {
    throw new MedusaError(MedusaError.Types.INVALID_DATA, "Only bank-transfer sessions are started here; a Quick Checkout session is paid on its form.")
  }
  refuseCanceledOrder(session)
  const payments = req.scope.resolve(Modules.PAYMENT)
  // Idempotent in Medusa and in the provider (one transfer per session): a reload starts nothing new.
  const payment = await payments.authorizePaymentSession(session.id, {})
  if (payment) {
    // Paid at once (sandbox): the provider's capture must also reach the order's transactions, or the order keeps owing.
    await capturePaymentWorkflow(req.scope).run({ input: { payment_id: payment.id } })
  }
  const [updated] = await payments.listPaymentSessions({ id: session.id })
  res.json({ payment_session: { id: session.id, session_status: updated?.status ?? session.status } })
}
