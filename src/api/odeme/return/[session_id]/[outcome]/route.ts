import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import type { OdemeReturnQueryType } from "../../../validators"
import { answerReturn } from "../../return-visit"

/**
 * GET /odeme/return/:session_id/:outcome — a return address without its
 * proof (a form signed before the proof was added, or someone who only knows
 * the session id): recorded only when verify can prove it, and the visitor is
 * sent on without learning where the payment stands.
 */
export async function GET(req: MedusaRequest<unknown, OdemeReturnQueryType>, res: MedusaResponse) {
  await answerReturn(req, res)
}
