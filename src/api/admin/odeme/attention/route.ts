import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { presentAttention } from "../../../../lib/attention"
import { odemeModule } from "../../../../lib/odeme-module"
import type { AdminGetOdemeAttentionParamsType } from "../validators"

/**
 * GET /admin/odeme/attention?limit&offset: what needs a person (payments in
 * review or of unknown outcome, duplicate or late charges, dead
 * notifications), newest first, with counts per kind.
 */
export async function GET(req: MedusaRequest<unknown, AdminGetOdemeAttentionParamsType>, res: MedusaResponse) {
  const { limit, offset } = req.validatedQuery
  const { rows, counts } = await odemeModule(req.scope).listAttention({ limit, offset })
  const total = Object.values(counts).reduce((a, b) => a + b, 0)
  res.json({ items: rows.map(presentAttention), count: total, counts: { ...counts, total }, limit, offset })
}
