import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { ODEME_SESSION_FIELDS, odemeSessionsOf, type CollectionSessions } from "../../lib/order-sessions"

/** The plugin's sessions of an order (its checkout's and its balances'), and the cart it was placed from. */
export async function odemeSessionsOfOrder(container: MedusaContainer, orderId: string): Promise<{ cartId: string | null; sessionIds: string[] }> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({ entity: "order", fields: ["id", "cart.id", ...ODEME_SESSION_FIELDS], filters: { id: orderId } })
  const order = data[0] as { cart?: { id: string } | null; payment_collections?: Array<CollectionSessions | null> | null } | undefined
  const ids = (order?.payment_collections ?? []).flatMap((c) => (c ? odemeSessionsOf(c).map((s) => s.id) : []))
  return { cartId: order?.cart?.id ?? null, sessionIds: [...new Set(ids)] }
}
