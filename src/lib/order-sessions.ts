import { isOdemeProvider } from "../storefront/provider-ids"

/** A payment collection as `ODEME_SESSION_FIELDS` reads it. */
export interface CollectionSessions {
  payment_sessions?: Array<{ id: string; provider_id: string; status?: string } | null> | null
  payments?: Array<{ payment_session_id?: string | null; provider_id?: string } | null> | null
}

/** What `odemeSessionsOf` reads of an order's payment collections (query.graph fields from the order). */
export const ODEME_SESSION_FIELDS = [
  "payment_collections.payment_sessions.id",
  "payment_collections.payment_sessions.provider_id",
  "payment_collections.payment_sessions.status",
  "payment_collections.payments.payment_session_id",
  "payment_collections.payments.provider_id",
]

/**
 * The plugin's sessions of one payment collection: those Medusa lists, then those it deleted after their payment
 * was made (a second tab opened another session on the paid cart), whose payment keeps the session id and still
 * holds the money. `status` is null for a deleted one.
 */
export function odemeSessionsOf(collection: CollectionSessions): Array<{ id: string; provider_id: string; status: string | null }> {
  const out: Array<{ id: string; provider_id: string; status: string | null }> = []
  for (const s of collection.payment_sessions ?? []) {
    if (s && isOdemeProvider(s.provider_id)) out.push({ id: s.id, provider_id: s.provider_id, status: s.status ?? null })
  }
  for (const p of collection.payments ?? []) {
    const id = p?.payment_session_id
    if (id && isOdemeProvider(p.provider_id) && !out.some((s) => s.id === id)) out.push({ id, provider_id: p.provider_id!, status: null })
  }
  return out
}
