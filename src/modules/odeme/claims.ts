/**
 * The poller's claims on payment rows: the lease on a page of due transfers, what a page of checks learned
 * (one statement for the page), the session's verify budget, and the poller's own health (a pass ran;
 * checks overdue because none runs). Each function runs on the knex the module service (./service.ts) gives it.
 */
import type { Knex } from "@medusajs/framework/mikro-orm/knex"
import { HEALTH, PAYMENT, POLL_WHERE, serialize } from "./rows"
import type { CheckedTransfer, OdemePaymentRow } from "./types"

/**
 * Claims one page of due transfers, newest first, by setting their lease
 * (`claimed_until`). SKIP LOCKED plus the lease means two pollers (two
 * workers) never take the same transfer; a row whose poller died becomes due
 * again when the lease ends. The lease is a column of its own, written
 * without `updated_at`: moving `next_check_at` (indexed) would put a new entry
 * in every index of the table for each claimed row, a cost that grows with
 * the table. Whatever sets the next check ends the lease (ledger.ts
 * `updatePaymentWhere`, `recordChecks`). Exported for the bench's EXPLAIN.
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
const RECORD_CHECKS_SQL = `update ${PAYMENT} p set ${CHECKED_COLUMNS.map(([c]) => `${c} = case when v.${c}_set then v.${c} else p.${c} end`).join(", ")},
       claimed_until = case when v.next_check_at_set then null else p.claimed_until end, updated_at = now()
     from jsonb_to_recordset(?::jsonb) as v(session_id text, version int, ${CHECKED_COLUMNS.map(([c, t]) => `${c} ${t}, ${c}_set boolean`).join(", ")})
     where p.session_id = v.session_id and p.version = v.version and p.deleted_at is null`

/**
 * Claims one page of up to `limit` transfers whose check is due (newest
 * first) under a lease, so two pollers never take the same transfer; `unknown`
 * transfers are asked about too once a notification told their uuid, and a
 * paid one whose settling in Medusa failed stays due until it is settled.
 */
export async function claimDueTransfers(db: Knex, limit: number, leaseSeconds: number): Promise<OdemePaymentRow[]> {
  const { rows } = await db.raw(CLAIM_SQL, [leaseSeconds, limit])
  return rows
}

/** What a page of checks learned about transfers whose state did not change, in one statement. */
export async function recordChecks(db: Knex, checks: CheckedTransfer[]): Promise<number> {
  if (!checks.length) return 0
  const result = await db.raw(RECORD_CHECKS_SQL, [checksJson(checks)])
  return result.rowCount ?? 0
}

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

/** Takes one verify call from the session's budget for the current window; when spent, says when the next opens. */
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
  // Only to say when to come back: a window another call opened meanwhile just moves that time.
  const row = await db(PAYMENT).whereNull("deleted_at").where({ session_id: sessionId }).first("verify_window_started_at")
  const start = row?.verify_window_started_at ? new Date(row.verify_window_started_at).getTime() : Date.now()
  return { ok: false, retryAt: new Date(start + windowSeconds * 1000 + 50) }
}

/** The poller ran a pass: its worker is alive (the "poller not running" item reads it). */
export async function notePollerPass(db: Knex): Promise<void> {
  await db.raw(
    `insert into ${HEALTH} as h (id, "count", last_at) values ('poller_pass', 1, now())
       on conflict (id) do update set "count" = h."count" + 1, last_at = now(), updated_at = now()`
  )
}

/**
 * Transfers due for a check an hour ago and more: no process of the store runs the checks (the poller is off
 * everywhere, its worker is down). Unpaid transfers then never expire, and money is found only by webhooks.
 */
export async function overdueTransferChecks(db: Knex): Promise<number> {
  const { rows } = await db.raw(`select count(*)::int as overdue from ${PAYMENT} where ${POLL_WHERE} and next_check_at < now() - interval '1 hour'`)
  return rows[0]?.overdue ?? 0
}
