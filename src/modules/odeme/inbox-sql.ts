/**
 * The notification inbox's statements too long to read inside their function (inbox.ts).
 */
import { HEALTH, NOTIFICATION, PAYMENT } from "./rows"
import { SESSION_OF_ORDER_ID } from "./references"

const REOPENS = `(${NOTIFICATION}.state = 'dead' or (${NOTIFICATION}.state = 'done' and ${NOTIFICATION}.outcome = 'rejected'))`

/** How many notifications for unknown references the health row keeps to show. */
const RECENT_STRAYS = 5

/**
 * The inbox's one write, for one notification or many at once (the intake
 * batches concurrent webhooks, see ./notification-batcher.ts): the lookup of
 * the payment, the insert and the duplicate check are one statement, and it
 * returns only what the route needs (not the stored payload back). Rows are
 * inserted in dedupe-key order, so two batches that share keys take their
 * locks in the same order and never deadlock: the Sort is the plan's top node
 * under the Insert, which takes rows in the order it gives them (PostgreSQL
 * does not document this for INSERT ... SELECT ... ORDER BY; the module test
 * "never deadlocks ..." runs batches in opposite orders to hold it).
 *
 * Notifications for references this store never made are counted in the same statement (`odeme_health`,
 * the last RECENT_STRAYS kept): the service's test delivery, a second store on the same URL. The count runs
 * before the first insert (an InitPlan the insert's filter reads), so every statement that takes the
 * counter's row takes it before the inbox's keys, and two never wait on each other in opposite orders.
 * Exported for the bench's EXPLAIN (with rows.ts storeRecord for its parameter).
 */
export const STORE_SQL = `
  with i as materialized (
    select i.*, r.payment_session, r.payment_session is not null as known
    from jsonb_to_recordset(?::jsonb)
      as i(id text, source text, dedupe_key text, session_id text, service_uuid text, status text, type text, payload text, raw_body text,
        state text, outcome text, copies int, trusted boolean)
      cross join lateral (select ${SESSION_OF_ORDER_ID("i.session_id")} as payment_session) r
  ), stray as (
    insert into ${HEALTH} as h (id, "count", last_at, recent)
    select 'stray_notifications', sum(i.copies), now(),
      (select jsonb_agg(jsonb_build_object('order_id', left(s.session_id, 200), 'status', left(s.status, 50), 'at', now()))
       from (select session_id, status from i where not known limit ${RECENT_STRAYS}) s)
    from i where not i.known having count(*) > 0
    on conflict (id) do update set "count" = h."count" + excluded."count", last_at = excluded.last_at, updated_at = now(),
      recent = (select jsonb_agg(e order by n) from (select e, n from jsonb_array_elements(excluded.recent || coalesce(h.recent, '[]'::jsonb))
        with ordinality as r(e, n) order by n limit ${RECENT_STRAYS}) t)
    returning 1
  )
  insert into ${NOTIFICATION} (id, source, dedupe_key, session_id, service_uuid, status, type, payload, raw_body, state, outcome, processed_at,
    duplicate_count, trusted)
  select i.id, i.source, i.dedupe_key, i.payment_session, i.service_uuid, i.status, i.type, i.payload::jsonb, i.raw_body, i.state, i.outcome,
    case when i.state = 'done' then now() end, i.copies - 1, coalesce(i.trusted, false)
  from i
  where i.known and (select count(*) from stray) >= 0
  order by i.dedupe_key
  on conflict (dedupe_key) where deleted_at is null
  do update set duplicate_count = ${NOTIFICATION}.duplicate_count + excluded.duplicate_count + 1, updated_at = now(),
    -- A copy from the service's named address proves the row, whoever sent it first.
    trusted = ${NOTIFICATION}.trusted or excluded.trusted,
    -- The service delivering a dead notification again gives it another round; so does a copy verify
    -- once refused (one negative answer is not final: the service may not have known the payment yet).
    state = case when ${REOPENS} then 'retry' else ${NOTIFICATION}.state end,
    attempts = case when ${REOPENS} then 0 else ${NOTIFICATION}.attempts end,
    next_attempt_at = case when ${REOPENS} then now() else ${NOTIFICATION}.next_attempt_at end
  returning id, dedupe_key, state, attempts, (xmax = 0) as inserted`

/** inbox.ts `whereDue` as SQL, for statements written out. */
const DUE_OF = (a: string) =>
  `((${a}.state in ('received', 'retry') and (${a}.next_attempt_at is null or ${a}.next_attempt_at <= now())) or (${a}.state = 'processing' and ${a}.locked_until < now()))`

/**
 * One claim (inbox.ts claimNotification): the row itself, or for a delivery nothing proved, its session's
 * due unproven row at the lane's end (the newest first; for the oldest's share, the oldest).
 */
export const CLAIM_NOTIFICATION_SQL = `
  with asked as (select session_id, trusted from ${NOTIFICATION} where id = :id and deleted_at is null),
  pick as (
    select n.id from ${NOTIFICATION} n join asked a on n.session_id = a.session_id
    where :lane <> 'exact' and not a.trusted and not n.trusted and n.deleted_at is null and n.service_uuid is not null and ${DUE_OF("n")}
    order by case when :lane = 'oldest' then n.created_at end asc, n.created_at desc, n.id desc
    limit 1
    for update of n skip locked
  )
  update ${NOTIFICATION} t set state = 'processing', locked_until = now() + make_interval(secs => :lease),
    -- Counted when taken, so an attempt that crashes its process still counts.
    attempts = t.attempts + 1, updated_at = now()
  where t.id = coalesce((select id from pick), :id) and t.deleted_at is null and ${DUE_OF("t")}
  returning t.*`
