import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { ContainerRegistrationKeys, MedusaError } from "@medusajs/framework/utils"
import type { Knex } from "@medusajs/framework/mikro-orm/knex"
import { confirmNotification } from "../../../../../../lib/confirm-payment"
import { NotificationInbox } from "../../../../../../lib/notification-inbox"
import { notificationParams, parseOr400, presentNotification, type NotificationLike } from "../../../presenters"

/**
 * POST /admin/odeme/notifications/:id/retry: gives a dead (or finished)
 * notification another round through the confirmation path.
 */
export async function POST(req: MedusaRequest, res: MedusaResponse) {
  const { id } = parseOr400(notificationParams, req.params, "notification id")
  const inbox = new NotificationInbox(req.scope.resolve<Knex>(ContainerRegistrationKeys.PG_CONNECTION))
  const before = await inbox.get(id)
  if (!before) throw new MedusaError(MedusaError.Types.NOT_FOUND, `Notification ${id} was not found.`)
  if (before.state === "processing" && before.locked_until && new Date(before.locked_until).getTime() > Date.now()) {
    throw new MedusaError(MedusaError.Types.CONFLICT, `Notification ${id} is being processed right now; try again in a moment.`)
  }
  const reopened = await inbox.reopen(id)
  const result = await confirmNotification(req.scope, id)
  const after = await inbox.get(id)
  res.json({
    result,
    reopened,
    notification: after ? presentNotification(after as unknown as NotificationLike) : null,
  })
}
