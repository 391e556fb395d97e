import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { MedusaError } from "@medusajs/framework/utils"
import { presentCharge } from "../../../../../../lib/attention"
import { odemeModule } from "../../../../../utils/odeme-module"

/**
 * POST /admin/odeme/charges/:id/acknowledge: a duplicate or late charge was
 * handled (refunded or accepted in the merchant panel). Records who said so;
 * no payment state changes.
 */
export async function POST(req: MedusaRequest, res: MedusaResponse) {
  const id = req.params.id
  if (!/^odchg_[A-Za-z0-9]{10,60}$/.test(id)) throw new MedusaError(MedusaError.Types.INVALID_DATA, "id must be a charge id (odchg_…).")
  const actor = (req as unknown as { auth_context?: { actor_id?: string } }).auth_context?.actor_id ?? null
  const charge = await odemeModule(req.scope).acknowledgeCharge(id, actor)
  if (!charge) throw new MedusaError(MedusaError.Types.NOT_FOUND, `No duplicate or late charge has the id ${id}.`)
  res.json({ charge: presentCharge(charge) })
}
