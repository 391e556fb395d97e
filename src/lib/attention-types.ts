/**
 * The "needs attention" contract, shared by the server and the Admin bundle
 * (which imports it as types only, so it imports nothing itself).
 */
export type AttentionKind = "review" | "duplicate_charge" | "unknown_outcome" | "dead_notification"

export type AttentionAction = "check" | "retry" | "acknowledge"

/** One thing a person must look at, with what they can do about it (Admin's "needs attention"). */
export interface AttentionItem {
  id: string
  kind: AttentionKind
  /** Why, as a code the Admin translates: amount_mismatch, late_success, session_gone, contradiction, creation_unknown, duplicate_charge, notification_dead. */
  code: string
  session_id: string | null
  order_id: string | null
  cart_id: string | null
  provider: string | null
  amount: string | null
  currency: string | null
  service_uuids: string[]
  notification_id: string | null
  charge_id: string | null
  /** Technical detail for the merchant's logs; not translated. */
  detail: string | null
  since: string
  actions: AttentionAction[]
}

