import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { MedusaError } from "@medusajs/framework/utils"
import { odemeModule } from "../../../../../../modules/odeme/resolve"
import { validatedParams } from "../../../../../utils/path-params"
import { adminOdemeError } from "../../../../../../lib/admin-errors"
import { AdminOdemePaymentParams, RESOLVE_NOTE_MIN_LENGTH, type AdminResolveOdemePaymentType } from "../../../validators"

/**
 * POST /admin/odeme/payments/:session_id/resolve ("Mark resolved"): a person
 * settled a review item by hand (refunded or accepted it in the merchant
 * panel) and says what they did. The item leaves "needs attention"; the note
 * stays in the payment's timeline. The payment's state is not changed.
 */
export async function POST(req: AuthenticatedMedusaRequest<AdminResolveOdemePaymentType>, res: MedusaResponse) {
  const { session_id } = await validatedParams(req, AdminOdemePaymentParams)
  const { note } = req.validatedBody
  // Here rather than in the validator, so the refusal carries a code the Admin translates.
  if (note.length < RESOLVE_NOTE_MIN_LENGTH) {
    throw adminOdemeError(
      MedusaError.Types.INVALID_DATA,
      "odeme.note_too_short",
      `Say what was done (at least ${RESOLVE_NOTE_MIN_LENGTH} characters).`
    )
  }
  const row = await odemeModule(req.scope).resolvePayment(session_id, req.auth_context.actor_id, note)
  if (!row) {
    throw adminOdemeError(MedusaError.Types.NOT_ALLOWED, "odeme.not_in_review", `Payment ${session_id} is not waiting for a person's decision.`)
  }
  res.json({ session_id, status: row.status, resolved_at: new Date(row.resolved_at!).toISOString(), resolution_note: row.resolution_note })
}
