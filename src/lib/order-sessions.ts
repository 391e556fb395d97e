import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"

type OrderPayments = {
  cart?: { id: string } | null
  payment_collections?: Array<{
    payment_sessions?: Array<{ id: string; provider_id: string }>
    payments?: Array<{ payment_session_id: string | null; provider_id: string }>
  }>
}

/**
 * The plugin's sessions of an order (its checkout's and its balances'), and the cart it was placed from.
 * The payments too: a session Medusa deleted after its payment was captured (the storefront opened another
 * session on the paid cart) is no longer listed, and its payment still holds the money.
 */
export async function odemeSessionsOfOrder(container: MedusaContainer, orderId: string): Promise<{ cartId: string | null; sessionIds: string[] }> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({
    entity: "order",
    fields: [
      "id",
      "cart.id",
      "payment_collections.payment_sessions.id",
      "payment_collections.payment_sessions.provider_id",
      "payment_collections.payments.payment_session_id",
      "payment_collections.payments.provider_id",
    ],
    filters: { id: orderId },
  })
  const order = data[0] as OrderPayments | undefined
  const ids = (order?.payment_collections ?? []).flatMap((c) => [
    ...(c.payment_sessions ?? []).filter((s) => s.provider_id.startsWith("pp_odeme-")).map((s) => s.id),
    ...(c.payments ?? []).filter((p) => p.provider_id.startsWith("pp_odeme-") && p.payment_session_id).map((p) => p.payment_session_id!),
  ])
  return { cartId: order?.cart?.id ?? null, sessionIds: [...new Set(ids)] }
}
