import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { MedusaError } from "@medusajs/framework/utils"
import { presentCharge } from "../../../../../../lib/attention"
import { odemeModule } from "../../../../../../modules/odeme/resolve"
import { validatedParams } from "../../../../../utils/path-params"
import { adminOdemeError } from "../../../../../../lib/admin-errors"
import { AdminOdemeChargeParams } from "../../../validators"

/**
 * POST /admin/odeme/charges/:id/acknowledge: a duplicate or late charge was
 * handled (refunded or accepted in the merchant panel). Records who said so;
 * no payment state changes.
 */
export async function POST(req: AuthenticatedMedusaRequest, res: MedusaResponse) {
  const { id } = await validatedParams(req, AdminOdemeChargeParams)
  const actor = req.auth_context.actor_id
  const charge = await odemeModule(req.scope).acknowledgeCharge(id, actor)
  if (!charge) throw adminOdemeError(MedusaError.Types.NOT_FOUND, "odeme.charge_not_found", `No duplicate or late charge has the id ${id}.`)
  res.json({ charge: presentCharge(charge) })
}
