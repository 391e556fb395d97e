import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { MedusaError } from "@medusajs/framework/utils"
import { odemeModule } from "../../../../../../lib/odeme-module"
import { validatedParams } from "../../../../../utils/path-params"
import { AdminOdemePaymentParams, type AdminResolveOdemePaymentType } from "../../../validators"

/**
 * POST /admin/odeme/payments/:session_id/resolve ("Mark resolved"): a person
 * settled a review item by hand (refunded or accepted it in the merchant
 * panel) and says what they did. The item leaves "needs attention"; the note
 * stays in the payment's timeline. The payment's state is not changed.
 */
export async function POST(req: AuthenticatedMedusaRequest<AdminResolveOdemePaymentType>, res: MedusaResponse) {
  const { session_id } = await validatedParams(req, AdminOdemePaymentParams)
  const row = await odemeModule(req.scope).resolvePayment(session_id, req.auth_context.actor_id, req.validatedBody.note)
  if (!row) throw new MedusaError(MedusaError.Types.NOT_ALLOWED, `Payment ${session_id} is not waiting for a person's decision.`)
  res.json({ session_id, status: row.status, resolved_at: new Date(row.resolved_at!).toISOString(), resolution_note: row.resolution_note })
}
