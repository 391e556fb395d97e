import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { presentAttention } from "../../../../lib/attention"
import { odemeModule } from "../../../../modules/odeme/resolve"
import type { AdminGetOdemeAttentionParamsType } from "../validators"
import { customersOf } from "./customers"

/**
 * GET /admin/odeme/attention?limit&offset: what needs a person (payments in
 * review or of unknown outcome, duplicate or late charges, dead
 * notifications), newest first, with counts per kind, each with the
 * customer whose payment it is.
 */
export async function GET(req: MedusaRequest<unknown, AdminGetOdemeAttentionParamsType>, res: MedusaResponse) {
  const { limit, offset } = req.validatedQuery
  const { rows, counts } = await odemeModule(req.scope).listAttention({ limit, offset })
  const total = Object.values(counts).reduce((a, b) => a + b, 0)
  const items = rows.map(presentAttention)
  const customers = await customersOf(req.scope, items)
  res.json({ items: items.map((i) => ({ ...i, customer: customers.get(i.id) ?? null })), count: total, counts: { ...counts, total }, limit, offset })
}
