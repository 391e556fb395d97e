import type { Knex } from "@medusajs/framework/mikro-orm/knex"
import type { CheckedTransfer, OdemePaymentRow, PaymentDetails, StateChange } from "../types"
import { PAYMENT, serialize } from "./tables"
import { newEntityId } from "./entity-id"

/**
 * The rows the poller asks about. The partial index IDX_odeme_payment_poll
 * (models/odeme-payment.ts) holds exactly these, so finished payments, however
 * many, cost the claim nothing.
 */
export const POLL_WHERE = `deleted_at is null and service_uuid is not null and next_check_at is not null and status in ('awaiting_transfer', 'unknown', 'paid', 'canceled')`

export async function getPayment(db: Knex, sessionId: string): Promise<OdemePaymentRow | null> {
  const row = await db(PAYMENT).whereNull("deleted_at").where({ session_id: sessionId }).first()
  return (row as OdemePaymentRow | undefined) ?? null
}

export async function recordInitiated(
  db: Knex,
  row: Pick<OdemePaymentRow, "session_id" | "provider" | "flow" | "mode" | "amount" | "currency"> & { metadata?: Record<string, unknown> | null }
): Promise<OdemePaymentRow> {
  const { rows } = await db.raw(
    `insert into ${PAYMENT} (id, session_id, provider, flow, mode, amount, currency, metadata)
     values (?, ?, ?, ?, ?, ?, ?, ?::jsonb)
     on conflict (session_id) where deleted_at is null
     do update set amount = excluded.amount, currency = excluded.currency,
       metadata = coalesce(excluded.metadata, ${PAYMENT}.metadata), updated_at = now()
     returning *`,
    [
      newEntityId("odpay"),
      row.session_id,
      row.provider,
      row.flow,
      row.mode,
      row.amount,
      row.currency,
      row.metadata ? JSON.stringify(row.metadata) : null,
    ]
  )
  return rows[0]
}

/** One conditional update of a live payment row, returning it when the condition held. */
export async function updatePaymentWhere(
  db: Knex,
  where: Record<string, unknown>,
  patch: Record<string, unknown>,
  whereIn?: [string, string[]]
): Promise<OdemePaymentRow | null> {
  let q = db(PAYMENT).whereNull("deleted_at").where(where)
  if (whereIn) q = q.whereIn(whereIn[0], whereIn[1])
  // A new next check ends the poller's lease (claimDueTransfers), or the row would wait for the lease too.
  const lease = "next_check_at" in patch ? { claimed_until: null } : {}
  const rows = await q.update({ ...patch, ...lease, updated_at: new Date() }).returning("*")
  return (rows[0] as OdemePaymentRow | undefined) ?? null
}

export function claimTransferCreation(db: Knex, sessionId: string, details: PaymentDetails) {
  return updatePaymentWhere(
    db,
    { session_id: sessionId, status: "pending" },
    { ...serialize(details), creation_state: "creating", creation_started_at: new Date() },
    ["creation_state", ["none", "failed"]]
  )
}

export function compareAndSetState(db: Knex, sessionId: string, version: number, change: StateChange) {
  // What a person resolved was this state: a new state (or review reason) is a new item for them.
  const resolvedAt = db.raw("case when status::text is distinct from ? or review_code::text is distinct from ? then null else resolved_at end", [
    change.status,
    change.review_code,
  ])
  return updatePaymentWhere(db, { session_id: sessionId, version }, { ...serialize(change), version: version + 1, resolved_at: resolvedAt })
}

/**
 * Claims one page of due transfers, newest first, by setting their lease
 * (`claimed_until`). SKIP LOCKED plus the lease means two pollers (two
 * workers) never take the same transfer; a row whose poller died becomes due
 * again when the lease ends. The lease is a column of its own, written
 * without `updated_at`: moving `next_check_at` (indexed) would put a new entry
 * in every index of the table for each claimed row, a cost that grows with
 * the table. Whatever sets the next check ends the lease (`updatePaymentWhere`,
 * `recordChecks`).
 */
export const CLAIM_SQL = `update ${PAYMENT} set claimed_until = now() + make_interval(secs => ?)
     where id in (
       select id from ${PAYMENT}
       where ${POLL_WHERE} and next_check_at <= now() and (claimed_until is null or claimed_until <= now())
       order by created_at desc
       limit ?
       for update skip locked
     )
     returning *`

export async function claimDueTransfers(db: Knex, limit: number, leaseSeconds: number): Promise<OdemePaymentRow[]> {
  const { rows } = await db.raw(CLAIM_SQL, [leaseSeconds, limit])
  return rows
}

export async function takeVerifyBudget(
  db: Knex,
  sessionId: string,
  budget: number,
  windowSeconds: number
): Promise<{ ok: true } | { ok: false; retryAt: Date }> {
  const { rows } = await db.raw(
    `update ${PAYMENT} set
       verify_calls = case when verify_window_started_at is null or verify_window_started_at <= now() - make_interval(secs => ?) then 1 else verify_calls + 1 end,
       verify_window_started_at = case when verify_window_started_at is null or verify_window_started_at <= now() - make_interval(secs => ?) then now() else verify_window_started_at end
     where session_id = ? and deleted_at is null
       and (verify_window_started_at is null or verify_window_started_at <= now() - make_interval(secs => ?) or verify_calls < ?)
     returning id`,
    [windowSeconds, windowSeconds, sessionId, windowSeconds, budget]
  )
  if (rows.length) return { ok: true }
  const row = await db(PAYMENT).whereNull("deleted_at").where({ session_id: sessionId }).first("verify_window_started_at")
  const start = row?.verify_window_started_at ? new Date(row.verify_window_started_at).getTime() : Date.now()
  return { ok: false, retryAt: new Date(start + windowSeconds * 1000 + 50) }
}

const CHECKED_COLUMNS = [
  ["tracking_no", "text"],
  ["bank_name", "text"],
  ["iban", "text"],
  ["payer_name", "text"],
  ["last_result", "text"],
  ["last_checked_at", "timestamptz"],
  ["check_attempts", "int"],
  ["check_failures", "int"],
  ["next_check_at", "timestamptz"],
] as const

/** Many checked transfers in one statement, so a pass does not wait on one commit per transfer. */
export async function recordChecks(db: Knex, checks: CheckedTransfer[]): Promise<number> {
  if (!checks.length) return 0
  const result = await db.raw(RECORD_CHECKS_SQL, [checksJson(checks)])
  return result.rowCount ?? 0
}

const RECORD_CHECKS_SQL = `update ${PAYMENT} p set ${CHECKED_COLUMNS.map(([c]) => `${c} = case when v.${c}_set then v.${c} else p.${c} end`).join(", ")},
       claimed_until = case when v.next_check_at_set then null else p.claimed_until end, updated_at = now()
     from jsonb_to_recordset(?::jsonb) as v(session_id text, version int, ${CHECKED_COLUMNS.map(([c, t]) => `${c} ${t}, ${c}_set boolean`).join(", ")})
     where p.session_id = v.session_id and p.version = v.version and p.deleted_at is null`

/**
 * The checks as the statement's one JSON parameter, each column with a flag saying whether it is set.
 * Built apart from the awaiting function, so the page's intermediate objects are garbage before the round trip.
 */
function checksJson(checks: CheckedTransfer[]): string {
  return JSON.stringify(
    checks.map((c) => {
      const values = serialize(c.details)
      const out: Record<string, unknown> = { session_id: c.session_id, version: c.version, ...values }
      for (const [column] of CHECKED_COLUMNS) out[`${column}_set`] = column in values
      return out
    })
  )
}

/** Counts a failed attempt (settling in Medusa, or asking the service) in a row, or ends the run of failures. */
export async function countFailure(db: Knex, sessionId: string, what: "settle" | "check", failed: boolean): Promise<void> {
  const column = what === "settle" ? "settle_failures" : "check_failures"
  await db(PAYMENT)
    .whereNull("deleted_at")
    .where({ session_id: sessionId })
    .update({ [column]: failed ? db.raw("?? + 1", [column]) : 0, updated_at: new Date() })
}

/**
 * A person closed a review or stuck item, saying what they did; the payment's
 * state is not changed. Until its state changes (then it is a new item).
 */
export async function resolvePayment(db: Knex, sessionId: string, actor: string | null, note: string): Promise<OdemePaymentRow | null> {
  const rows = await db(PAYMENT)
    .whereNull("deleted_at")
    .where({ session_id: sessionId })
    .where((q) => q.whereIn("status", ["review", "unknown"]).orWhere("settle_failures", ">", 0).orWhere("check_failures", ">", 0))
    .update({ resolved_at: new Date(), resolved_by: actor, resolution_note: note, updated_at: new Date() })
    .returning("*")
  return (rows[0] as OdemePaymentRow | undefined) ?? null
}

/**
 * Names the cart on the payment, and the cart's order on every payment of that
 * cart that does not name one; a balance's payment (no cart) names its order.
 */
export async function linkCart(db: Knex, sessionId: string, cartId: string | null, orderId: string | null): Promise<void> {
  if (cartId) await db(PAYMENT).whereNull("deleted_at").where({ session_id: sessionId }).update({ cart_id: cartId, updated_at: new Date() })
  if (!cartId && orderId) {
    await db(PAYMENT).whereNull("deleted_at").where({ session_id: sessionId }).whereNull("order_id").update({ order_id: orderId, updated_at: new Date() })
  }
  if (cartId && orderId) {
    await db(PAYMENT).whereNull("deleted_at").where({ cart_id: cartId }).whereNull("order_id").update({ order_id: orderId, updated_at: new Date() })
  }
}

/**
 * Creation claims left `creating` by a process that stopped before it recorded
 * an answer: the transfer may exist at the service, so they become `unknown`
 * (never created again). The sessions whose claim was ended.
 */
export async function endStaleCreations(db: Knex, olderThanSeconds: number, limit: number): Promise<string[]> {
  const { rows } = await db.raw(
    `update ${PAYMENT} set creation_state = 'unknown', last_result = 'creating process stopped before an answer', updated_at = now()
     where id in (select id from ${PAYMENT} where deleted_at is null and creation_state = 'creating'
       and creation_started_at < now() - make_interval(secs => ?) limit ? for update skip locked)
     returning session_id`,
    [olderThanSeconds, limit]
  )
  return (rows as Array<{ session_id: string }>).map((r) => r.session_id)
}

/**
 * Paid payments of a cart that no order names yet, settled at least a moment
 * ago: the reconciler asks Medusa about them (a page, oldest first).
 */
export async function unsettledPaid(db: Knex, olderThanSeconds: number, limit: number): Promise<OdemePaymentRow[]> {
  return db(PAYMENT)
    .whereNull("deleted_at")
    .where({ status: "paid" })
    .whereNotNull("cart_id")
    .whereNull("order_id")
    .where("updated_at", "<", db.raw("now() - make_interval(secs => ?)", [olderThanSeconds]))
    .orderBy("updated_at")
    .limit(limit)
}
