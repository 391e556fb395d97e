import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import type { OdemeReturnQueryType } from "../../../../validators"
import { answerReturn } from "../../../return-visit"

/**
 * GET /odeme/return/:session_id/:outcome/:proof — the `success_url` /
 * `cancel_url` the plugin signs into a session's form (spec §6.1); see
 * answerReturn.
 */
export async function GET(req: MedusaRequest<unknown, OdemeReturnQueryType>, res: MedusaResponse) {
  await answerReturn(req, res)
}
