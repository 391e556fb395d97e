import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { odemeModule } from "../../../utils/odeme-module"
import { pageQuery, parseOr400, presentPayment, type PaymentLike } from "../presenters"

/** GET /admin/odeme/transfers?limit&offset: transfers still waiting for the money, newest first. */
export async function GET(req: MedusaRequest, res: MedusaResponse) {
  const { limit, offset } = parseOr400(pageQuery, req.query, "query")
  const [rows, count] = await odemeModule(req.scope).listAndCountOdemePayments(
    { status: "awaiting_transfer" },
    { order: { created_at: "DESC" }, take: limit, skip: offset }
  )
  const transfers = (rows as unknown as PaymentLike[]).map((r) => {
    const { timeline: _timeline, ...rest } = presentPayment(r)
    return { ...rest, order_id: r.order_id ?? null, cart_id: r.cart_id ?? null }
  })
  res.json({ transfers, count, limit, offset })
}
