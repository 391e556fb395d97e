import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import type { Logger } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, MedusaError, Modules } from "@medusajs/framework/utils"
import { odemeError } from "../../../../../../lib/medusa-errors"
import { settleAndFollow } from "../../../../../../workflows/payment-state/apply-service-answer"
import { withSettleLock } from "../../../../../../workflows/settle/lock"
import { odemeModule } from "../../../../../../modules/odeme/resolve"
import { findOwnedSession, refuseUnpayable } from "../../../../../utils/owned-session"
import type { StoreAuthorizeOdemeBalanceType } from "../../../validators"
import { errorText } from "../../../../../../lib/error-text"

/**
 * POST /store/odeme/payment-sessions/:id/authorize { payment_collection_id, order_id }:
 * starts the bank transfer that pays an order's balance (Admin's payment
 * link). A checkout's transfer starts when its cart is completed; a balance
 * has no cart, and Medusa has no store route that authorizes a collection,
 * so this is that step. The session then waits in `pending_authorization`
 * (the IBAN is in the status route's answer) and the poller captures it onto
 * the same order when the service approves it.
 *
 * Medusa's authorize runs under the session's settle lock: a sandbox
 * transfer approved at once is also announced by a webhook at once, and two
 * captures of one balance running side by side would put its transaction on
 * the order twice (the order would read as overpaid).
 */
export async function POST(req: MedusaRequest<StoreAuthorizeOdemeBalanceType>, res: MedusaResponse) {
  const session = await findOwnedSession(req, req.params.id, req.validatedBody)
  if (!session.provider_id.startsWith("pp_odeme-transfer_")) {
    throw odemeError(
      MedusaError.Types.INVALID_DATA,
      "odeme.invalid_session_data",
      "Only bank-transfer sessions are started here; a Quick Checkout session is paid on its form."
    )
  }
  await refuseUnpayable(req.scope, session)
  const payments = req.scope.resolve(Modules.PAYMENT)
  // Under the settle lock, like every capture: Medusa's authorize of a transfer the service approves at once
  // captures it, while the webhook announcing that approval settles the same session.
  const payment = await withSettleLock(req.scope, session.id, () => payments.authorizePaymentSession(session.id, {}))
  const row = payment ? await odemeModule(req.scope).getPayment(session.id) : null
  if (row?.status === "paid") {
    // Paid at once (sandbox): the payment module captured it by itself; settling puts it on the order, as the
    // webhook's processing would. The transfer is started either way: what this could not finish, the poller
    // finishes (a paid transfer stays due until it is settled).
    await settleAndFollow(req.scope, row).catch((err) =>
      req.scope
        .resolve<Logger>(ContainerRegistrationKeys.LOGGER)
        .warn(`medusa-payment-odeme: balance transfer ${session.id} is paid but not yet on its order; the poller retries: ${errorText(err)}`)
    )
  }
  const [updated] = await payments.listPaymentSessions({ id: session.id })
  res.json({ payment_session: { id: session.id, session_status: updated?.status ?? session.status } })
}
