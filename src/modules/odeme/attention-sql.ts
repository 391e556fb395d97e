/**
 * The attention read model's statement (attention.ts): everything a person must look at, computed when Admin
 * reads it rather than stored as flags. Each branch of the UNION is one kind of item, with the same columns.
 */
import type { PaymentState } from "./models/states"
import { CHARGE, HEALTH, NOTIFICATION, OPEN_NOTIFICATION, PAYMENT, POLL_WHERE, REFUND } from "./rows"
import type { MedusaRefusal } from "./types"

/**
 * What Medusa would not do, each with the payment states in which it still
 * stands: an unpaid transfer's order stays uncanceled only while the transfer
 * is unpaid; a paid order's rest stays unasked only while it is paid.
 */
const MEDUSA_REFUSAL_STATES: Record<MedusaRefusal, PaymentState[]> = {
  order_not_canceled: ["expired", "failed", "canceled"],
  rest_not_asked: ["paid"],
}
/** The map as SQL `values` rows (constants of this file, never input). */
const REFUSAL_VALUES = Object.entries(MEDUSA_REFUSAL_STATES)
  .map(([what, states]) => `('${what}', array[${states.map((x) => `'${x}'`).join(", ")}])`)
  .join(", ")

/** Open notifications with when they became due, and whether their session's verify waited for its budget. */
const OPEN_ROWS = `select n.session_id, n.created_at, n.deferrals,
    case when n.state = 'processing' then n.locked_until else coalesce(n.next_attempt_at, n.created_at) end as due_since,
    bool_or(n.deferrals > 0) over (partition by n.session_id) as held
  from ${NOTIFICATION} n where n.deleted_at is null and n.${OPEN_NOTIFICATION}`

/**
 * Whether stored notifications are being processed, computed when Admin reads it, so it shows while no worker
 * runs: notifications no process took up within `notifications.unprocessedAfterMinutes` (the worker or its Redis
 * is down), a session's notifications held back that long behind copies using its verify budget (a flood of
 * forged copies), and a poller that has not run for three of its periods while work waits for it.
 */
const PROCESSING_ATTENTION_SQL = `
  select 'processing:unprocessed', 'processing', 'notifications_unprocessed',
    null, null, null, null, null, null, null, null, null, null, null, min(o.due_since), count(*)::int
  from (${OPEN_ROWS}) o where not o.held and o.due_since < now() - make_interval(secs => :unprocessed_seconds)
  having count(*) > 0
  union all
  select 'held:' || o.session_id, 'processing', 'notifications_held_back',
    o.session_id, p.provider, p.amount, p.currency, p.order_id, p.cart_id, null, null, null, null,
    format('%s waiting; verify deferred %s times for the session''s budget', count(*), sum(o.deferrals)), min(o.created_at), count(*)::int
  from (${OPEN_ROWS}) o left join ${PAYMENT} p on p.session_id = o.session_id and p.deleted_at is null
  where o.held
  group by o.session_id, p.provider, p.amount, p.currency, p.order_id, p.cart_id
  having min(o.created_at) < now() - make_interval(secs => :unprocessed_seconds)
  union all
  select 'processing:poller', 'processing', 'poller_not_running',
    null, null, null, null, null, null, null, null, null, null, null, coalesce(h.last_at, w.since), null
  from (select least(
      (select min(o.due_since) from (${OPEN_ROWS}) o),
      (select min(next_check_at) from ${PAYMENT} where ${POLL_WHERE})) as since) w
  left join ${HEALTH} h on h.id = 'poller_pass'
  where w.since < now() - make_interval(secs => :poller_seconds)
    and (h.last_at is null or h.last_at < now() - make_interval(secs => :poller_seconds))`

/**
 * Everything a person must look at: payments in review or unknown (not
 * resolved by hand), unacknowledged duplicate/late/rejected charges, dead
 * notifications, refunds to make in the merchant panel, returns that said
 * "paid" while no notification confirmed it, and payments whose settling or
 * checks keep failing.
 */
export const ATTENTION_SQL = `
  select 'payment:' || p.id as id, case when p.status = 'unknown' then 'unknown_outcome' else 'review' end as kind,
    coalesce(p.review_code::text, case when p.status = 'unknown' then 'creation_unknown' else 'review' end) as code,
    p.session_id, p.provider, p.amount, p.currency, p.order_id, p.cart_id,
    p.service_uuid, null::text as notification_id, null::text as charge_id, null::text as refund_id, p.review_reason as detail, p.updated_at as since,
    null::int as count
  from ${PAYMENT} p where p.deleted_at is null and p.status in ('review', 'unknown') and p.resolved_at is null
    -- the late charge of these is the item (money to give back)
    and coalesce(p.review_code::text, '') not in ('late_success', 'session_gone', 'already_paid')
  union all
  select 'charge:' || c.id, case when c.role = 'duplicate' then 'duplicate_charge' else 'review' end,
    case when c.role = 'duplicate' then 'duplicate_charge' when c.role = 'rejected' then 'amount_mismatch'
      else coalesce(p.review_code::text, 'late_success') end,
    c.session_id, p.provider, c.amount, c.currency, p.order_id, p.cart_id,
    c.service_uuid, null, c.id, null, coalesce(p.review_reason, c.detail), c.updated_at, null
  from ${CHARGE} c left join ${PAYMENT} p on p.session_id = c.session_id and p.deleted_at is null
  where c.deleted_at is null and c.status = 'successful' and c.acknowledged_at is null
    and (c.role in ('duplicate', 'late')
      -- a verified success for another amount, while the session was paid by another payment: money to give back
      or (c.role = 'rejected' and p.status = 'paid' and p.service_uuid is distinct from c.service_uuid))
  union all
  select 'notification:' || n.id, 'dead_notification',
    -- verify proved a success the transfer's own record never showed: money may well be there, not an outage
    case when n.outcome = 'pending' and lower(n.verify_result->>'official_status') = 'successful' and n.verify_result->>'is_valid' = 'true'
      then 'success_unrecorded' else 'notification_dead' end,
    n.session_id, p.provider, p.amount, p.currency, p.order_id, p.cart_id,
    n.service_uuid, n.id, null, null, n.last_error, n.updated_at, null
  from ${NOTIFICATION} n left join ${PAYMENT} p on p.session_id = n.session_id and p.deleted_at is null
  where n.deleted_at is null and n.state = 'dead'
  union all
  select 'refund:' || r.id, 'refund_due', 'refund_due',
    r.session_id, p.provider, r.amount, coalesce(r.currency, p.currency), p.order_id, p.cart_id,
    p.service_uuid, null, null, r.id, null, r.created_at, null
  from ${REFUND} r left join ${PAYMENT} p on p.session_id = r.session_id and p.deleted_at is null
  where r.deleted_at is null and r.acknowledged_at is null
  union all
  select * from (select distinct on (p.id) 'return:' || p.id, 'unconfirmed_return',
    -- what the customer's word is measured against: a notification of theirs that waits to be processed, others
    -- arriving but none for this payment, or none arriving at all (the webhook URL in the merchant panel)
    case when exists (select 1 from ${NOTIFICATION} w where w.session_id = p.session_id and w.source = 'webhook' and w.deleted_at is null
           and w.${OPEN_NOTIFICATION})
         then 'unconfirmed_return_unprocessed'
         when exists (select 1 from ${NOTIFICATION} w where w.source = 'webhook' and w.deleted_at is null
           and w.created_at > r.created_at - make_interval(secs => :unconfirmed_seconds))
         then 'unconfirmed_return_no_webhook'
         else 'unconfirmed_return' end,
    p.session_id, p.provider, p.amount, p.currency, p.order_id, p.cart_id,
    null, r.id, null, null, null, r.created_at, null::int
  from ${NOTIFICATION} r join ${PAYMENT} p on p.session_id = r.session_id and p.deleted_at is null
  where r.deleted_at is null and r.source = 'return' and r.status = 'successful' and r.trusted
    and r.created_at < now() - make_interval(secs => :unconfirmed_seconds)
    -- canceled too: a customer who paid and then changed the cart (Medusa deleted the session) is still charged
    -- a person's "resolved" holds for the returns they saw, not for a later one
    and p.status in ('pending', 'canceled') and (p.resolved_at is null or r.created_at > p.resolved_at)
  order by p.id, r.created_at) first_return
  union all
  select 'medusa:' || p.id || ':' || r.what, 'review', r.what,
    p.session_id, p.provider, p.amount, p.currency, coalesce(p.metadata->r.what->>'order_id', p.order_id), p.cart_id,
    p.service_uuid, null, null, null, p.metadata->r.what->>'reason', p.updated_at, null
  from ${PAYMENT} p cross join (values ${REFUSAL_VALUES}) as r(what, while_status)
  where p.deleted_at is null and jsonb_exists(p.metadata, r.what)
    -- a person's "resolved" holds for the refusals they saw, not for a later one
    and (p.resolved_at is null or (p.metadata->r.what->>'at')::timestamptz > p.resolved_at)
    -- only while the payment is still what the refusal was about (a transfer's money arriving after all pays the order)
    and p.status::text = any(r.while_status)
  union all
  select 'stuck:' || p.id, 'stuck', case when p.status = 'paid' then 'settle_failing' else 'checks_failing' end,
    p.session_id, p.provider, p.amount, p.currency, p.order_id, p.cart_id,
    p.service_uuid, null, null, null, p.last_result, p.updated_at, null
  from ${PAYMENT} p
  where p.deleted_at is null and p.resolved_at is null and (
    (p.status = 'paid' and p.settle_failures >= :failures)
    -- canceled too: the customer may still send a transfer that was canceled here, and the poller keeps asking about it
    or (p.status in ('awaiting_transfer', 'unknown', 'canceled') and p.check_failures >= :failures))
  union all
  ${PROCESSING_ATTENTION_SQL}`
