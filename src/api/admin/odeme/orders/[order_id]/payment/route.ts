import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { ContainerRegistrationKeys, MedusaError } from "@medusajs/framework/utils"
import { presentAttention, presentCharge } from "../../../../../../lib/attention"
import type { OdemeChargeRow } from "../../../../../../modules/odeme/service"
import { odemeModule } from "../../../../../utils/odeme-module"
import { validatedParams } from "../../../../../utils/path-params"
import { presentPayment } from "../../../presenters"
import type { NotificationLike, PaymentLike } from "../../../rows"
import { AdminOdemeOrderParams } from "../../../validators"

interface OrderGraph {
  id: string
  payment_collections?: Array<{
    id: string
    payment_sessions?: Array<{ id: string; provider_id: string; status: string; created_at?: string } | null> | null
  } | null> | null
}

/**
 * GET /admin/odeme/orders/:order_id/payment: the order's payments through
 * this plugin, with the notification timeline (for the order widget).
 */
export async function GET(req: MedusaRequest, res: MedusaResponse) {
  const { order_id } = await validatedParams(req, AdminOdemeOrderParams)
  const query = req.scope.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({
    entity: "order",
    fields: [
      "id",
      "payment_collections.id",
      "payment_collections.payment_sessions.id",
      "payment_collections.payment_sessions.provider_id",
      "payment_collections.payment_sessions.status",
      "payment_collections.payment_sessions.created_at",
    ],
    filters: { id: order_id },
  })
  const order = data[0] as OrderGraph | undefined
  if (!order) throw new MedusaError(MedusaError.Types.NOT_FOUND, `Order ${order_id} was not found.`)

  const sessions = (order.payment_collections ?? [])
    .flatMap((pc) => pc?.payment_sessions ?? [])
    .filter((s): s is NonNullable<typeof s> => !!s && typeof s.provider_id === "string" && s.provider_id.startsWith("pp_odeme-"))
  if (!sessions.length) return res.json({ order_id, payments: [] })

  const odeme = odemeModule(req.scope)
  const ids = sessions.map((s) => s.id)
  const [rows, notifications, charges, attention] = await Promise.all([
    odeme.listOdemePayments({ session_id: ids }, { take: 500 }),
    odeme.listOdemeNotifications({ session_id: ids }, { order: { created_at: "ASC" }, take: 1000 }),
    odeme.listOdemeCharges({ session_id: ids }, { order: { created_at: "ASC" }, take: 500 }),
    odeme.listAttention({ limit: 200, offset: 0, sessionIds: ids }),
  ])
  const bySession = new Map((rows as unknown as PaymentLike[]).map((r) => [r.session_id, r]))
  const payments = sessions
    .map((s) => {
      const row = bySession.get(s.id)
      if (!row) return null
      return {
        ...presentPayment(row, {
          provider_id: s.provider_id,
          medusa_session_status: s.status,
          notifications: (notifications as unknown as NotificationLike[]).filter((n) => n.session_id === s.id),
        }),
        charges: (charges as unknown as OdemeChargeRow[]).filter((c) => c.session_id === s.id).map(presentCharge),
        attention: attention.rows.filter((a) => a.session_id === s.id).map(presentAttention),
      }
    })
    .filter((p): p is NonNullable<typeof p> => !!p)
  res.json({ order_id, payments })
}
