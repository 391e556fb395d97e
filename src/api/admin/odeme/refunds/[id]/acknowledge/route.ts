import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { MedusaError } from "@medusajs/framework/utils"
import { odemeModule } from "../../../../../../modules/odeme/resolve"
import { validatedParams } from "../../../../../utils/path-params"
import { adminOdemeError } from "../../../../../../lib/admin-errors"
import { AdminOdemeRefundParams } from "../../../validators"

/**
 * POST /admin/odeme/refunds/:id/acknowledge: the refund Medusa recorded was
 * paid back in the merchant panel. Records who said so.
 */
export async function POST(req: AuthenticatedMedusaRequest, res: MedusaResponse) {
  const { id } = await validatedParams(req, AdminOdemeRefundParams)
  const refund = await odemeModule(req.scope).acknowledgeRefund(id, req.auth_context.actor_id)
  if (!refund) throw adminOdemeError(MedusaError.Types.NOT_FOUND, "odeme.refund_not_found", `No refund to make has the id ${id}.`)
  res.json({
    refund: {
      id: refund.id,
      session_id: refund.session_id,
      amount: refund.amount,
      currency: refund.currency,
      acknowledged_at: refund.acknowledged_at ? new Date(refund.acknowledged_at).toISOString() : null,
    },
  })
}
