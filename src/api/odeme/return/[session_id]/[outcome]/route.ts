import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { MedusaError } from "@medusajs/framework/utils"
import { failureReason } from "../../../../../lib/failure-reason"
import { processNotification } from "../../../../../workflows/process-notification"
import { odemeModule } from "../../../../../lib/odeme-module"
import { validatedParams } from "../../../../utils/path-params"
import { OdemeReturnParams, type OdemeReturnQueryType } from "../../../validators"
import { withDeadline } from "../../../../../lib/deadline"
import { balanceOf, recordReturn, storefrontTarget, waitForVerdict } from "../../return-visit"

/**
 * GET /odeme/return/:session_id/:outcome — the `success_url` / `cancel_url`
 * the service sends the customer's browser to (spec §6.1). Its parameters are
 * navigation, never proof: they are recorded, a transfer confirmation (which
 * carries `uuid`) goes through the notification path, and the customer is
 * sent to the storefront with what the plugin really knows.
 */
export async function GET(req: MedusaRequest<unknown, OdemeReturnQueryType>, res: MedusaResponse) {
  const { session_id: sessionId, outcome } = await validatedParams(req, OdemeReturnParams)
  const q = req.validatedQuery
  const odeme = odemeModule(req.scope)
  const recorded = await recordReturn(odeme, sessionId, outcome, q)
  if (!recorded) throw new MedusaError(MedusaError.Types.NOT_FOUND, "Unknown payment.")

  const waitMs = odeme.odemeOptions.checkout.returnWaitMs
  // Not due (a reload while it waits for its retry): processing refuses it and keeps its backoff.
  if (recorded.verifiable && recorded.id) {
    // At most waitMs of processing: its failure or lateness is not the customer's concern (the inbox keeps the row due).
    await withDeadline(processNotification(req.scope, recorded.id), waitMs, "processing the return").catch(() => undefined)
  }
  const settled = await waitForVerdict(odeme, sessionId, waitMs)
  const reason = settled.status === "failed" ? failureReason(q.message) : null
  res.redirect(303, storefrontTarget(odeme.odemeOptions, settled, reason, await balanceOf(req.scope, sessionId)))
}
