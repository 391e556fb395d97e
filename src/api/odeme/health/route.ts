import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { odemeModule } from "../../../modules/odeme/resolve"

/** GET /odeme/health: liveness of the plugin's routes (no secrets, no service call). */
export async function GET(req: MedusaRequest, res: MedusaResponse) {
  const { mode } = odemeModule(req.scope).odemeOptions
  res.json({ plugin: "medusa-payment-odeme", status: "ok", mode })
}
