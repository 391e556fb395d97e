import type { AttentionKind, AttentionRow, OdemeChargeRow } from "../modules/odeme/service"

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

export function presentAttention(row: AttentionRow): AttentionItem {
  const actions: AttentionAction[] =
    row.kind === "dead_notification" ? ["retry"] : row.charge_id ? ["acknowledge"] : ["check"]
  return {
    id: row.id,
    kind: row.kind,
    code: row.code,
    session_id: row.session_id,
    order_id: row.order_id,
    cart_id: row.cart_id,
    provider: row.provider,
    amount: row.amount,
    currency: row.currency,
    service_uuids: row.service_uuid ? [row.service_uuid] : [],
    notification_id: row.notification_id,
    charge_id: row.charge_id,
    detail: row.detail,
    since: new Date(row.since).toISOString(),
    actions,
  }
}

/** A service payment of a session, as the Admin shows it. */
export function presentCharge(c: OdemeChargeRow) {
  return {
    id: c.id,
    service_uuid: c.service_uuid,
    status: c.status,
    role: c.role,
    amount: c.amount,
    currency: c.currency,
    type: c.type,
    verified_at: c.verified_at ? new Date(c.verified_at).toISOString() : null,
    acknowledged_at: c.acknowledged_at ? new Date(c.acknowledged_at).toISOString() : null,
  }
}
