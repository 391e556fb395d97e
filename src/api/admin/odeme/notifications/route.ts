import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { odemeModule } from "../../../utils/odeme-module"
import { notificationsQuery, parseOr400, presentNotification, type NotificationLike } from "../presenters"

/** GET /admin/odeme/notifications?state=dead&limit&offset: the inbox by state (dead by default), newest first. */
export async function GET(req: MedusaRequest, res: MedusaResponse) {
  const { state, session_id, limit, offset } = parseOr400(notificationsQuery, req.query, "query")
  const [rows, count] = await odemeModule(req.scope).listAndCountOdemeNotifications(
    { state, ...(session_id ? { session_id } : {}) },
    { order: { created_at: "DESC" }, take: limit, skip: offset }
  )
  res.json({ notifications: (rows as unknown as NotificationLike[]).map(presentNotification), count, limit, offset, state })
}
