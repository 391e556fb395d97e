import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { MedusaError } from "@medusajs/framework/utils"
import { processNotification } from "../../../../../../workflows/process-notification"
import { odemeModule } from "../../../../../../modules/odeme/resolve"
import { validatedParams } from "../../../../../utils/path-params"
import { adminOdemeError } from "../../../../../../lib/admin-errors"
import { presentNotification } from "../../../presenters"
import type { NotificationLike } from "../../../rows"
import { AdminOdemeNotificationParams } from "../../../validators"

/**
 * POST /admin/odeme/notifications/:id/retry: gives a dead (or finished)
 * notification another round through the notification path.
 */
export async function POST(req: MedusaRequest, res: MedusaResponse) {
  const { id } = await validatedParams(req, AdminOdemeNotificationParams)
  const odeme = odemeModule(req.scope)
  const before = await odeme.getNotification(id)
  if (!before) throw adminOdemeError(MedusaError.Types.NOT_FOUND, "odeme.notification_not_found", `Notification ${id} was not found.`)
  if (before.state === "processing" && before.locked_until && new Date(before.locked_until).getTime() > Date.now()) {
    // NOT_ALLOWED (400), not CONFLICT: Medusa answers a CONFLICT with its own sentence about an Idempotency-Key.
    throw adminOdemeError(
      MedusaError.Types.NOT_ALLOWED,
      "odeme.notification_busy",
      `Notification ${id} is being processed right now; try again in a moment.`
    )
  }
  const reopened = await odeme.reopenNotification(id)
  const result = await processNotification(req.scope, id, { exact: true })
  const after = await odeme.getNotification(id)
  res.json({
    result,
    reopened,
    notification: after ? presentNotification(after as unknown as NotificationLike) : null,
  })
}
