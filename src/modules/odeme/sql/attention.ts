import type { Knex } from "@medusajs/framework/mikro-orm/knex"
import type { AttentionKind, AttentionRow } from "../types"
import { CHARGE, NOTIFICATION, PAYMENT, REFUND } from "./tables"

/** How long a run of failures may last before a person is asked to look. */
export interface AttentionThresholds {
  /** A return that said success with no verified notification after this long: the webhook is not arriving. */
  unconfirmedAfterMinutes: number
  /** Consecutive failures of settling in Medusa, or of asking the service about a transfer. */
  failures: number
}

/**
 * Everything a person must look at: payments in review or unknown (not
 * resolved by hand), unacknowledged duplicate/late/rejected charges, dead
 * notifications, refunds to make in the merchant panel, returns that said
 * "paid" while no notification confirmed it, and payments whose settling or
 * checks keep failing.
 */
const UNION = `
  select 'payment:' || p.id as id, case when p.status = 'unknown' then 'unknown_outcome' else 'review' end as kind,
    coalesce(p.review_code::text, case when p.status = 'unknown' then 'creation_unknown' else 'review' end) as code,
    p.session_id, p.provider, p.amount, p.currency, p.order_id, p.cart_id,
    p.service_uuid, null::text as notification_id, null::text as charge_id, null::text as refund_id, p.review_reason as detail, p.updated_at as since
  from ${PAYMENT} p where p.deleted_at is null and p.status in ('review', 'unknown') and p.resolved_at is null
    -- the late charge of these is the item (money to give back)
    and coalesce(p.review_code::text, '') not in ('late_success', 'session_gone', 'already_paid')
  union all
  select 'charge:' || c.id, case when c.role = 'duplicate' then 'duplicate_charge' else 'review' end,
    case when c.role = 'duplicate' then 'duplicate_charge' when c.role = 'rejected' then 'amount_mismatch'
      else coalesce(p.review_code::text, 'late_success') end,
    c.session_id, p.provider, c.amount, c.currency, p.order_id, p.cart_id,
    c.service_uuid, null, c.id, null, coalesce(p.review_reason, c.detail), c.updated_at
  from ${CHARGE} c left join ${PAYMENT} p on p.session_id = c.session_id and p.deleted_at is null
  where c.deleted_at is null and c.status = 'successful' and c.acknowledged_at is null
    and (c.role in ('duplicate', 'late')
      -- a verified success for another amount, while the session was paid by another payment: money to give back
      or (c.role = 'rejected' and p.status = 'paid' and p.service_uuid is distinct from c.service_uuid))
  union all
  select 'notification:' || n.id, 'dead_notification', 'notification_dead',
    n.session_id, p.provider, p.amount, p.currency, p.order_id, p.cart_id,
    n.service_uuid, n.id, null, null, n.last_error, n.updated_at
  from ${NOTIFICATION} n left join ${PAYMENT} p on p.session_id = n.session_id and p.deleted_at is null
  where n.deleted_at is null and n.state = 'dead'
  union all
  select 'refund:' || r.id, 'refund_due', 'refund_due',
    r.session_id, p.provider, r.amount, coalesce(r.currency, p.currency), p.order_id, p.cart_id,
    p.service_uuid, null, null, r.id, null, r.created_at
  from ${REFUND} r left join ${PAYMENT} p on p.session_id = r.session_id and p.deleted_at is null
  where r.deleted_at is null and r.acknowledged_at is null
  union all
  select * from (select distinct on (p.id) 'return:' || p.id, 'unconfirmed_return', 'unconfirmed_return',
    p.session_id, p.provider, p.amount, p.currency, p.order_id, p.cart_id,
    null, r.id, null, null, null, r.created_at
  from ${NOTIFICATION} r join ${PAYMENT} p on p.session_id = r.session_id and p.deleted_at is null
  where r.deleted_at is null and r.source = 'return' and r.status = 'successful'
    and r.created_at < now() - make_interval(secs => :unconfirmed_seconds)
    -- canceled too: a customer who paid and then changed the cart (Medusa deleted the session) is still charged
    and p.status in ('pending', 'canceled') and p.resolved_at is null
  order by p.id, r.created_at) first_return
  union all
  select 'stuck:' || p.id, 'stuck', case when p.status = 'paid' then 'settle_failing' else 'checks_failing' end,
    p.session_id, p.provider, p.amount, p.currency, p.order_id, p.cart_id,
    p.service_uuid, null, null, null, p.last_result, p.updated_at
  from ${PAYMENT} p
  where p.deleted_at is null and p.resolved_at is null and (
    (p.status = 'paid' and p.settle_failures >= :failures)
    or (p.status in ('awaiting_transfer', 'unknown') and p.check_failures >= :failures))`

export const ATTENTION_KINDS: AttentionKind[] = ["review", "duplicate_charge", "unknown_outcome", "dead_notification", "refund_due", "unconfirmed_return", "stuck"]

export async function listAttention(
  db: Knex,
  page: { limit: number; offset: number; sessionIds?: string[] },
  thresholds: AttentionThresholds
): Promise<{ rows: AttentionRow[]; counts: Record<AttentionKind, number> }> {
  const only = page.sessionIds ? ` where session_id = any(:sessions)` : ""
  const bindings = {
    unconfirmed_seconds: Math.round(thresholds.unconfirmedAfterMinutes * 60),
    failures: thresholds.failures,
    sessions: page.sessionIds ?? null,
    limit: page.limit,
    offset: page.offset,
  }
  const [{ rows }, { rows: countRows }] = await Promise.all([
    db.raw(`select * from (${UNION}) a${only} order by since desc limit :limit offset :offset`, bindings),
    db.raw(`select kind, count(*)::int as n from (${UNION}) a${only} group by kind`, bindings),
  ])
  const counts = Object.fromEntries(ATTENTION_KINDS.map((k) => [k, 0])) as Record<AttentionKind, number>
  for (const r of countRows as Array<{ kind: AttentionKind; n: number }>) counts[r.kind] = r.n
  return { rows, counts }
}

/** How the service's webhooks are arriving (Settings → Odeme); reads the inbox, which only the admin page asks. */
export async function webhookHealth(db: Knex): Promise<{ last_webhook_at: Date | null; webhooks_24h: number }> {
  const { rows } = await db.raw(
    `select max(created_at) as last_webhook_at, count(*) filter (where created_at > now() - interval '24 hours')::int as webhooks_24h
     from ${NOTIFICATION} where deleted_at is null and source = 'webhook'`
  )
  return { last_webhook_at: rows[0]?.last_webhook_at ?? null, webhooks_24h: rows[0]?.webhooks_24h ?? 0 }
}
