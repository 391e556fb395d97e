import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { MedusaError } from "@medusajs/framework/utils"
import { z } from "zod"
import { presentAttention } from "../../../../lib/attention"
import { odemeModule } from "../../../utils/odeme-module"

const query = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
})

/**
 * GET /admin/odeme/attention?limit&offset: what needs a person (payments in
 * review or of unknown outcome, duplicate or late charges, dead
 * notifications), newest first, with counts per kind.
 */
export async function GET(req: MedusaRequest, res: MedusaResponse) {
  const parsed = query.safeParse(req.query)
  if (!parsed.success) throw new MedusaError(MedusaError.Types.INVALID_DATA, parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; "))
  const { limit, offset } = parsed.data
  const { rows, counts } = await odemeModule(req.scope).listAttention({ limit, offset })
  const total = counts.review + counts.duplicate_charge + counts.unknown_outcome + counts.dead_notification
  res.json({ items: rows.map(presentAttention), count: total, counts: { ...counts, total }, limit, offset })
}
