import type { AttentionRow, OdemeChargeRow } from "../modules/odeme/service"
import type { AttentionAction, AttentionItem } from "./attention-types"

export type { AttentionAction, AttentionItem, AttentionKind } from "./attention-types"

/** Items a person may close with a note ("Mark resolved"): what only a person can settle. */
const RESOLVABLE: AttentionRow["kind"][] = ["review", "stuck", "unknown_outcome", "unconfirmed_return"]

export function presentAttention(row: AttentionRow): AttentionItem {
  const actions: AttentionAction[] =
    row.kind === "dead_notification"
      ? ["retry"]
      : row.charge_id || row.refund_id
        ? ["acknowledge"]
        : RESOLVABLE.includes(row.kind)
          ? ["check", "resolve"]
          : // Processing items go by themselves; one of a session can have its notifications verified now.
            row.kind === "processing" && !row.session_id
            ? []
            : ["check"]
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
    refund_id: row.refund_id,
    detail: row.detail,
    since: new Date(row.since).toISOString(),
    count: row.count ?? null,
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
