import type { Knex } from "@medusajs/framework/mikro-orm/knex"
import type { AttentionKind, AttentionRow } from "../types"
import { CHARGE, NOTIFICATION, PAYMENT } from "./tables"

/** Payments in review or unknown, unacknowledged duplicate/late/rejected charges, dead notifications. */
const UNION = `
  select 'payment:' || p.id as id, case when p.status = 'unknown' then 'unknown_outcome' else 'review' end as kind,
    coalesce(p.review_code::text, case when p.status = 'unknown' then 'creation_unknown' else 'review' end) as code,
    p.session_id, p.provider, p.amount, p.currency, p.order_id, p.cart_id,
    p.service_uuid, null::text as notification_id, null::text as charge_id, p.review_reason as detail, p.updated_at as since
  from ${PAYMENT} p where p.deleted_at is null and p.status in ('review', 'unknown')
    and coalesce(p.review_code::text, '') not in ('late_success', 'session_gone')
  union all
  select 'charge:' || c.id, case when c.role = 'duplicate' then 'duplicate_charge' else 'review' end,
    case when c.role = 'duplicate' then 'duplicate_charge' when c.role = 'rejected' then 'amount_mismatch'
      else coalesce(p.review_code::text, 'late_success') end,
    c.session_id, p.provider, c.amount, c.currency, p.order_id, p.cart_id,
    c.service_uuid, null, c.id, c.detail, c.updated_at
  from ${CHARGE} c left join ${PAYMENT} p on p.session_id = c.session_id and p.deleted_at is null
  where c.deleted_at is null and c.status = 'successful' and c.acknowledged_at is null
    and (c.role in ('duplicate', 'late')
      -- a verified success for another amount, while the session was paid by another payment: money to give back
      or (c.role = 'rejected' and p.status = 'paid' and p.service_uuid is distinct from c.service_uuid))
  union all
  select 'notification:' || n.id, 'dead_notification', 'notification_dead',
    n.session_id, p.provider, p.amount, p.currency, p.order_id, p.cart_id,
    n.service_uuid, n.id, null, n.last_error, n.updated_at
  from ${NOTIFICATION} n left join ${PAYMENT} p on p.session_id = n.session_id and p.deleted_at is null
  where n.deleted_at is null and n.state = 'dead'`

export async function listAttention(
  db: Knex,
  page: { limit: number; offset: number; sessionIds?: string[] }
): Promise<{ rows: AttentionRow[]; counts: Record<AttentionKind, number> }> {
  const only = page.sessionIds ? ` where session_id = any(?)` : ""
  const bindings = page.sessionIds ? [page.sessionIds] : []
  const [{ rows }, { rows: countRows }] = await Promise.all([
    db.raw(`select * from (${UNION}) a${only} order by since desc limit ? offset ?`, [...bindings, page.limit, page.offset]),
    db.raw(`select kind, count(*)::int as n from (${UNION}) a${only} group by kind`, bindings),
  ])
  const counts: Record<AttentionKind, number> = { review: 0, duplicate_charge: 0, unknown_outcome: 0, dead_notification: 0 }
  for (const r of countRows as Array<{ kind: AttentionKind; n: number }>) counts[r.kind] = r.n
  return { rows, counts }
}
