import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { odemeModule } from "../../../../modules/odeme/resolve"
import { presentNotification } from "../presenters"
import type { NotificationLike } from "../rows"
import type { AdminGetOdemeNotificationsParamsType } from "../validators"

/** GET /admin/odeme/notifications?state=dead&limit&offset: the inbox by state (dead by default), newest first. */
export async function GET(req: MedusaRequest<unknown, AdminGetOdemeNotificationsParamsType>, res: MedusaResponse) {
  const { state, session_id, limit, offset } = req.validatedQuery
  const [rows, count] = await odemeModule(req.scope).listAndCountOdemeNotifications(
    { state, ...(session_id ? { session_id } : {}) },
    { order: { created_at: "DESC" }, take: limit, skip: offset }
  )
  res.json({ notifications: (rows as unknown as NotificationLike[]).map(presentNotification), count, limit, offset, state })
}
