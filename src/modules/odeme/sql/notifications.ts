import { generateEntityId } from "@medusajs/framework/utils"
import type { Knex } from "@medusajs/framework/mikro-orm/knex"
import type { NotificationSource } from "../models/states"
import type { NotificationSettlement, OdemeNotificationRow, StoredNotification } from "../types"
import { NOTIFICATION, PAYMENT } from "./tables"

export interface NotificationInput {
  source: NotificationSource
  dedupe_key: string
  session_id: string
  service_uuid: string | null
  status: string | null
  type: string | null
  payload: Record<string, unknown>
  raw_body: string | null
  state?: "received" | "done"
  outcome?: string | null
}

/**
 * The webhook route's one round trip: the lookup of the payment, the insert
 * and the duplicate check are one statement, and it returns only what the
 * route needs (not the stored payload back).
 */
const STORE_SQL = (done: boolean) => `
  insert into ${NOTIFICATION} (id, source, dedupe_key, session_id, service_uuid, status, type, payload, raw_body, state, outcome, processed_at)
  select ?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?, ?, ?, ${done ? "now()" : "null"}
  where exists (select 1 from ${PAYMENT} where session_id = ? and deleted_at is null)
  on conflict (dedupe_key) where deleted_at is null
  do update set duplicate_count = ${NOTIFICATION}.duplicate_count + 1, updated_at = now(),
    -- The service delivering a dead notification again gives it another round.
    state = case when ${NOTIFICATION}.state = 'dead' then 'retry' else ${NOTIFICATION}.state end,
    attempts = case when ${NOTIFICATION}.state = 'dead' then 0 else ${NOTIFICATION}.attempts end,
    next_attempt_at = case when ${NOTIFICATION}.state = 'dead' then now() else ${NOTIFICATION}.next_attempt_at end
  returning id, state, attempts, (xmax = 0) as inserted`
const STORE_RECEIVED = STORE_SQL(false)
const STORE_DONE = STORE_SQL(true)

export async function storeNotification(db: Knex, input: NotificationInput): Promise<{ row: StoredNotification; duplicate: boolean } | null> {
  const { rows } = await db.raw(input.state === "done" ? STORE_DONE : STORE_RECEIVED, [
    generateEntityId(undefined, "odntf"),
    input.source,
    input.dedupe_key,
    input.session_id,
    input.service_uuid,
    input.status,
    input.type,
    JSON.stringify(input.payload),
    input.raw_body,
    input.state ?? "received",
    input.outcome ?? null,
    input.session_id,
  ])
  if (!rows.length) return null
  const { inserted, ...row } = rows[0]
  return { row, duplicate: !inserted }
}

/**
 * A row is due when it waits for a first attempt or its retry time came, or
 * when the process that held it let its lease run out. The partial index
 * IDX_odeme_notification_open holds exactly the rows this can match.
 */
function whereDue(db: Knex) {
  return (q: Knex.QueryBuilder) =>
    q
      .where((w) => w.whereIn("state", ["received", "retry"]).where((n) => n.whereNull("next_attempt_at").orWhere("next_attempt_at", "<=", db.fn.now())))
      .orWhere((w) => w.where("state", "processing").where("locked_until", "<", db.fn.now()))
}

/** Takes a row when it is due; a row waiting for its retry is not: repeats cannot skip the backoff. */
export async function claimNotification(db: Knex, id: string, leaseSeconds: number): Promise<OdemeNotificationRow | null> {
  const rows = await db(NOTIFICATION)
    .whereNull("deleted_at")
    .where({ id })
    .where(whereDue(db))
    .update({
      state: "processing",
      locked_until: db.raw("now() + make_interval(secs => ?)", [Math.round(leaseSeconds)]),
      // Counted when taken, so an attempt that crashes its process still counts.
      attempts: db.raw("attempts + 1"),
      updated_at: db.fn.now(),
    })
    .returning("*")
  return (rows[0] as OdemeNotificationRow | undefined) ?? null
}

export async function dueNotificationIds(db: Knex, limit: number): Promise<string[]> {
  const rows = await db(NOTIFICATION)
    .whereNull("deleted_at")
    .whereIn("state", ["received", "retry", "processing"])
    .where(whereDue(db))
    .orderBy("created_at", "asc")
    .limit(limit)
    .select("id")
  return rows.map((r: { id: string }) => r.id)
}

export async function settleNotification(db: Knex, id: string, end: NotificationSettlement): Promise<void> {
  await db(NOTIFICATION)
    .where({ id })
    .update({
      state: end.state,
      outcome: end.outcome,
      last_error: "last_error" in end && end.last_error ? end.last_error.slice(0, 2000) : null,
      verify_result: end.verify_result === undefined ? undefined : JSON.stringify(end.verify_result),
      next_attempt_at: end.state === "retry" ? end.next_attempt_at : null,
      locked_until: null,
      processed_at: end.state === "done" ? db.fn.now() : undefined,
      updated_at: db.fn.now(),
    })
}

export async function deferNotification(db: Knex, id: string, at: Date): Promise<void> {
  await db(NOTIFICATION)
    .where({ id, state: "processing" })
    .update({ state: "retry", next_attempt_at: at, locked_until: null, attempts: db.raw("greatest(attempts - 1, 0)"), updated_at: db.fn.now() })
}

export async function reopenNotification(db: Knex, id: string): Promise<boolean> {
  const n = await db(NOTIFICATION)
    .where({ id })
    .whereIn("state", ["dead", "done"])
    .whereNotNull("service_uuid")
    .update({ state: "retry", attempts: 0, next_attempt_at: db.fn.now(), updated_at: db.fn.now() })
  return Number(n) > 0
}

export async function verifiableNotificationIds(db: Knex, sessionId: string, limit: number): Promise<string[]> {
  const rows = await db(NOTIFICATION)
    .whereNull("deleted_at")
    .where({ session_id: sessionId })
    .whereNotNull("service_uuid")
    // A copy the verify endpoint called invalid stays invalid: re-checking it only spends the budget.
    .whereRaw("coalesce(verify_result->>'is_valid', '') <> 'false'")
    .orderBy("created_at", "desc")
    .limit(limit)
    .select("id")
  return rows.map((r: { id: string }) => r.id)
}
