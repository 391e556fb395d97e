import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { odemeModule } from "../../../../modules/odeme/resolve"
import { presentPayment } from "../presenters"
import type { PaymentLike } from "../rows"
import type { AdminGetOdemeTransfersParamsType } from "../validators"

/** GET /admin/odeme/transfers?limit&offset: transfers still waiting for the money, newest first. */
export async function GET(req: MedusaRequest<unknown, AdminGetOdemeTransfersParamsType>, res: MedusaResponse) {
  const { limit, offset } = req.validatedQuery
  const [rows, count] = await odemeModule(req.scope).listAwaitingTransfers({ limit, offset })
  const transfers = (rows as unknown as PaymentLike[]).map((r) => {
    const { timeline: _timeline, ...rest } = presentPayment(r)
    return { ...rest, order_id: r.order_id ?? null, cart_id: r.cart_id ?? null }
  })
  res.json({ transfers, count, limit, offset })
}
