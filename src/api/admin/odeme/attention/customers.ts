import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import type { AttentionCustomer } from "../../../../lib/attention-types"
import { one } from "../../../../workflows/settle/read-model"
import { customerOf, PARTY_FIELDS, type PartyGraph } from "../customer"

type Owned = { id: string; order_id: string | null; cart_id: string | null; session_id: string | null }

/**
 * The customer of each item, by item id: through its order, else its cart,
 * else its payment session's collection (a cart not named on the payment
 * yet, or an order's balance). At most three queries for a page.
 */
export async function customersOf(container: MedusaContainer, items: Owned[]): Promise<Map<string, AttentionCustomer | null>> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const unique = (ids: Array<string | null>) => [...new Set(ids.filter((id): id is string => !!id))]
  const orderIds = unique(items.map((i) => i.order_id))
  const cartIds = unique(items.filter((i) => !i.order_id).map((i) => i.cart_id))
  const sessionIds = unique(items.filter((i) => !i.order_id && !i.cart_id).map((i) => i.session_id))
  const read = async (entity: string, fields: string[], ids: string[]) =>
    ids.length ? ((await query.graph({ entity, fields, filters: { id: ids } })).data as unknown[]) : []
  const [orders, carts, sessions] = await Promise.all([
    read("order", PARTY_FIELDS, orderIds),
    read("cart", PARTY_FIELDS, cartIds),
    read(
      "payment_session",
      ["id", ...PARTY_FIELDS.map((f) => `payment_collection.cart.${f}`), ...PARTY_FIELDS.map((f) => `payment_collection.order.${f}`)],
      sessionIds
    ),
  ])
  const byId = (rows: unknown[]) => new Map((rows as PartyGraph[]).map((r) => [r.id!, r]))
  const orderOf = byId(orders)
  const cartOf = byId(carts)
  const sessionOf = new Map(
    (sessions as Array<{ id: string; payment_collection?: { cart?: unknown; order?: unknown } | null }>).map((s) => [
      s.id,
      (one(s.payment_collection?.cart as PartyGraph) ?? one(s.payment_collection?.order as PartyGraph)) as PartyGraph | null,
    ])
  )
  return new Map(
    items.map((i) => [
      i.id,
      customerOf(i.order_id ? orderOf.get(i.order_id) : i.cart_id ? cartOf.get(i.cart_id) : i.session_id ? sessionOf.get(i.session_id) : null),
    ])
  )
}
