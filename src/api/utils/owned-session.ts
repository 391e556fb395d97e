import type { MedusaRequest } from "@medusajs/framework/http"
import { ContainerRegistrationKeys, MedusaError } from "@medusajs/framework/utils"
import { hasNulCharacter } from "../../lib/notification-shape"

export interface OwnedSession {
  id: string
  status: string
  provider_id: string
}

/**
 * A payment session of this plugin that belongs to the given cart (the cart
 * id is validated in the route's middleware). The same 404 for "no such
 * session" and "not your cart", so ids cannot be probed.
 */
export async function findOwnedSession(req: MedusaRequest, sessionId: string, cartId: string): Promise<OwnedSession> {
  if (hasNulCharacter(sessionId)) {
    // Could never match a stored id (and PostgreSQL refuses it): the same 404 as an unknown session.
    throw new MedusaError(MedusaError.Types.NOT_FOUND, "Payment session was not found for this cart.")
  }
  const query = req.scope.resolve(ContainerRegistrationKeys.QUERY)
  const { data } = await query.graph({
    entity: "payment_session",
    fields: ["id", "status", "provider_id", "payment_collection.cart.id"],
    filters: { id: sessionId },
  })
  const session = data[0] as (OwnedSession & { payment_collection?: { cart?: { id?: string } } }) | undefined
  if (!session || session.payment_collection?.cart?.id !== cartId || !session.provider_id.startsWith("pp_odeme-")) {
    throw new MedusaError(MedusaError.Types.NOT_FOUND, `Payment session ${sessionId} was not found for this cart.`)
  }
  return { id: session.id, status: session.status, provider_id: session.provider_id }
}
