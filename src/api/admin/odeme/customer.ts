import type { AttentionCustomer } from "../../../lib/attention-types"

/**
 * Whose payment an attention item is: the name and e-mail of the cart or
 * order it pays, read from Medusa (its query, not the plugin's tables), so
 * the list says who to refund or call without opening each order.
 */

type Name = { first_name?: string | null; last_name?: string | null } | null | undefined

/** A cart or an order as `PARTY_FIELDS` reads it. */
export interface PartyGraph {
  id?: string
  email?: string | null
  customer?: (Name & { email?: string | null }) | null
  billing_address?: Name
  shipping_address?: Name
}

export const PARTY_FIELDS = [
  "id",
  "email",
  "customer.first_name",
  "customer.last_name",
  "customer.email",
  "billing_address.first_name",
  "billing_address.last_name",
  "shipping_address.first_name",
  "shipping_address.last_name",
]

const fullName = (n: Name) =>
  [n?.first_name, n?.last_name]
    .map((s) => s?.trim())
    .filter(Boolean)
    .join(" ") || null

/**
 * The payer's name as the customer gave it: the billing address (who pays),
 * else the customer's account, else the shipping address; the e-mail of the
 * cart or order, else the account's. Null when neither is known.
 */
export function customerOf(party: PartyGraph | null | undefined): AttentionCustomer | null {
  if (!party) return null
  const name = fullName(party.billing_address) ?? fullName(party.customer) ?? fullName(party.shipping_address)
  const email = party.email?.trim() || party.customer?.email?.trim() || null
  return name || email ? { name, email } : null
}
