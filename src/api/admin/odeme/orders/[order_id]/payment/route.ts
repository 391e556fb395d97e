import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { ContainerRegistrationKeys, MedusaError } from "@medusajs/framework/utils"
import { presentAttention, presentCharge } from "../../../../../../lib/attention"
import type { OdemeChargeRow } from "../../../../../../modules/odeme/service"
import { odemeModule } from "../../../../../../modules/odeme/resolve"
import { type CollectionSessions, ODEME_SESSION_FIELDS, odemeSessionsOf } from "../../../../../../lib/order-sessions"
import { validatedParams } from "../../../../../utils/path-params"
import { adminOdemeError } from "../../../../../../lib/admin-errors"
import { presentPayment, type AdminOrderCollection } from "../../../presenters"
import type { NotificationLike, PaymentLike } from "../../../rows"
import { AdminOdemeOrderParams } from "../../../validators"

interface OrderGraph {
  id: string
  payment_collections?: Array<
    | (CollectionSessions & {
        id: string
        status?: string
        amount?: unknown
        currency_code?: string
        created_at?: string | Date
      })
    | null
  > | null
}

/**
 * GET /admin/odeme/orders/:order_id/payment: the order's payments through
 * this plugin, with the notification timeline, and the order's payment
 * collections (the checkout's and each balance's) with their state, so the
 * widget shows what was paid for what (for the order widget).
 */
export async function GET(req: MedusaRequest, res: MedusaResponse) {
  const { order_id } = await validatedParams(req, AdminOdemeOrderParams)
  const query = req.scope.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({
    entity: "order",
    fields: [
      "id",
      "payment_collections.id",
      "payment_collections.status",
      "payment_collections.amount",
      "payment_collections.currency_code",
      "payment_collections.created_at",
      ...ODEME_SESSION_FIELDS,
    ],
    filters: { id: order_id },
  })
  const order = data[0] as OrderGraph | undefined
  if (!order) throw adminOdemeError(MedusaError.Types.NOT_FOUND, "odeme.order_not_found", `Order ${order_id} was not found.`)

  const pcs = (order.payment_collections ?? []).filter((pc): pc is NonNullable<typeof pc> => !!pc)
  // With the sessions Medusa deleted after their payment was made: their refunds and items belong on this page too.
  const sessions = pcs.flatMap(odemeSessionsOf)
  if (!sessions.length) return res.json({ order_id, payments: [], collections: [] })

  // The checkout's collection is the one linked to a cart; the others pay a balance of the order.
  const { data: cartLinks } = await query.graph({
    entity: "cart_payment_collection",
    fields: ["payment_collection_id"],
    filters: { payment_collection_id: pcs.map((pc) => pc.id) },
  })
  const fromCart = new Set((cartLinks as Array<{ payment_collection_id: string }>).map((l) => l.payment_collection_id))
  const collections: AdminOrderCollection[] = [...pcs]
    .sort((a, b) => new Date(a.created_at ?? 0).getTime() - new Date(b.created_at ?? 0).getTime())
    .map((pc) => ({
      id: pc.id,
      kind: fromCart.has(pc.id) ? "original" : "balance",
      status: pc.status ?? "not_paid",
      amount: pc.amount === undefined || pc.amount === null ? null : String(pc.amount),
      currency: pc.currency_code ?? null,
      session_ids: odemeSessionsOf(pc).map((s) => s.id),
    }))
  const collectionOf = new Map(collections.flatMap((c) => c.session_ids.map((id) => [id, c.id] as const)))

  const odeme = odemeModule(req.scope)
  const ids = sessions.map((s) => s.id)
  const [rows, notifications, charges, attention] = await Promise.all([
    odeme.getPayments(ids),
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
        payment_collection_id: collectionOf.get(s.id) ?? null,
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
  res.json({ order_id, payments, collections })
}
