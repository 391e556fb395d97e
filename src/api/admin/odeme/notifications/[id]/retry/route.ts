import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { MedusaError } from "@medusajs/framework/utils"
import { processNotification } from "../../../../../../lib/process-notification"
import { odemeModule } from "../../../../../utils/odeme-module"
import { notificationParams, parseOr400, presentNotification, type NotificationLike } from "../../../presenters"

/**
 * POST /admin/odeme/notifications/:id/retry: gives a dead (or finished)
 * notification another round through the notification path.
 */
export async function POST(req: MedusaRequest, res: MedusaResponse) {
  const { id } = parseOr400(notificationParams, req.params, "notification id")
  const odeme = odemeModule(req.scope)
  const before = await odeme.getNotification(id)
  if (!before) throw new MedusaError(MedusaError.Types.NOT_FOUND, `Notification ${id} was not found.`)
  if (before.state === "processing" && before.locked_until && new Date(before.locked_until).getTime() > Date.now()) {
    throw new MedusaError(MedusaError.Types.CONFLICT, `Notification ${id} is being processed right now; try again in a moment.`)
  }
  const reopened = await odeme.reopenNotification(id)
  const result = await processNotification(req.scope, id)
  const after = await odeme.getNotification(id)
  res.json({
    result,
    reopened,
    notification: after ? presentNotification(after as unknown as NotificationLike) : null,
  })
}
