import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { MedusaError } from "@medusajs/framework/utils"
import { checkPayment } from "../../../../../../workflows/poller/check-payment"
import { odemeModule } from "../../../../../../modules/odeme/resolve"
import { validatedParams } from "../../../../../utils/path-params"
import { adminOdemeError } from "../../../../../../lib/admin-errors"
import { AdminOdemePaymentParams } from "../../../validators"

/**
 * POST /admin/odeme/payments/:session_id/check ("Check now"): asks the
 * service about the payment and runs the confirmation path with its answer.
 */
export async function POST(req: MedusaRequest, res: MedusaResponse) {
  const { session_id } = await validatedParams(req, AdminOdemePaymentParams)
  const odeme = odemeModule(req.scope)
  const row = await odeme.getPayment(session_id)
  if (!row)
    throw adminOdemeError(MedusaError.Types.NOT_FOUND, "odeme.payment_not_found", `No payment of this plugin has the session id ${session_id}.`)
  // The state and `code` are codes the Admin translates; `detail` is technical.
  const result = await checkPayment(req.scope, session_id)
  // A transfer without the service's id (its creation got no answer) cannot be asked by id: not "the customer did not pay".
  if (result.code === "no_notification" && row.flow === "transfer_api" && !row.service_uuid) return res.json({ ...result, code: "no_service_id" })
  res.json(result)
}
