import type { Knex } from "@medusajs/framework/mikro-orm/knex"
import { LONE_SURROGATE } from "../../../lib/notification-shape"
import type { NotificationSource } from "../models/states"
import type { NotificationSettlement, OdemeNotificationRow, StoredNotification } from "../types"
import { NOTIFICATION, PAYMENT } from "./tables"
import { newEntityId } from "./entity-id"

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
 * The inbox's one write, for one notification or many at once (the intake
 * batches concurrent webhooks, see ../notification-batcher.ts): the lookup of
 * the payment, the insert and the duplicate check are one statement, and it
 * returns only what the route needs (not the stored payload back). Rows are
 * inserted in dedupe-key order, so two batches that share keys take their
 * locks in the same order and never deadlock: the Sort is the plan's top node
 * under the Insert, which takes rows in the order it gives them (PostgreSQL
 * does not document this for INSERT ... SELECT ... ORDER BY; the module test
 * "never deadlocks ..." runs batches in opposite orders to hold it).
 */
const REOPENS = `(${NOTIFICATION}.state = 'dead' or (${NOTIFICATION}.state = 'done' and ${NOTIFICATION}.outcome = 'rejected'))`

export const STORE_SQL = `
  insert into ${NOTIFICATION} (id, source, dedupe_key, session_id, service_uuid, status, type, payload, raw_body, state, outcome, processed_at, duplicate_count)
  select i.id, i.source, i.dedupe_key, i.session_id, i.service_uuid, i.status, i.type, i.payload::jsonb, i.raw_body, i.state, i.outcome,
    case when i.state = 'done' then now() end, i.copies - 1
  from jsonb_to_recordset(?::jsonb)
    as i(id text, source text, dedupe_key text, session_id text, service_uuid text, status text, type text, payload text, raw_body text, state text, outcome text, copies int)
  where exists (select 1 from ${PAYMENT} p where p.session_id = i.session_id and p.deleted_at is null)
  order by i.dedupe_key
  on conflict (dedupe_key) where deleted_at is null
  do update set duplicate_count = ${NOTIFICATION}.duplicate_count + excluded.duplicate_count + 1, updated_at = now(),
    -- The service delivering a dead notification again gives it another round; so does a copy verify
    -- once refused (one negative answer is not final: the service may not have known the payment yet).
    state = case when ${REOPENS} then 'retry' else ${NOTIFICATION}.state end,
    attempts = case when ${REOPENS} then 0 else ${NOTIFICATION}.attempts end,
    next_attempt_at = case when ${REOPENS} then now() else ${NOTIFICATION}.next_attempt_at end
  returning id, dedupe_key, state, attempts, (xmax = 0) as inserted`

export type StoreResult = { row: StoredNotification; duplicate: boolean } | null

/**
 * Stores notifications in one statement; the answer for each input, in order
 * (null: the session is none of this store's payments). Copies with the same
 * dedupe key in one call are one row: the first is new or a duplicate as the
 * table says, the others are duplicates of it. A copy that would be another
 * row (another session, source or state) goes in a statement of its own after.
 */
export async function storeNotifications(db: Knex, inputs: NotificationInput[]): Promise<StoreResult[]> {
  const groups = new Map<string, { input: NotificationInput; copies: number }>()
  const now: number[] = []
  const later: number[] = []
  inputs.forEach((input, i) => {
    // Answers are matched by the key PostgreSQL returns: it must come back as it went (contentKey's `c:` + hex).
    if (!PLAIN_KEY.test(input.dedupe_key)) throw new Error(`notification dedupe key is not plain ASCII: ${JSON.stringify(input.dedupe_key.slice(0, 80))}`)
    const group = groups.get(input.dedupe_key)
    if (!group) groups.set(input.dedupe_key, { input, copies: 1 })
    else if (sameRow(group.input, input)) group.copies++
    else return void later.push(i)
    now.push(i)
  })
  // The batch is one JSON parameter, a record per row: serialised natively, where one array
  // parameter per column was escaped element by element in JavaScript, under a burst.
  const records = [...groups.values()].map(({ input, copies }) => storeRecord(input, copies))
  const { rows } = await db.raw(STORE_SQL, [JSON.stringify(records)])
  const stored = new Map<string, { row: StoredNotification; inserted: boolean }>()
  for (const { dedupe_key, inserted, ...row } of rows) stored.set(dedupe_key, { row, inserted })

  const answers: StoreResult[] = new Array(inputs.length).fill(null)
  const answered = new Set<string>()
  for (const i of now) {
    const key = inputs[i].dedupe_key
    const hit = stored.get(key)
    if (!hit) continue
    answers[i] = { row: hit.row, duplicate: answered.has(key) || !hit.inserted }
    answered.add(key)
  }
  if (later.length) {
    const rest = await storeNotifications(db, later.map((i) => inputs[i]))
    later.forEach((i, k) => (answers[i] = rest[k]))
  }
  return answers
}

/**
 * One row of STORE_SQL's parameter. The payload stays text in it, cast only
 * for rows whose session exists. Text columns are made well-formed first:
 * jsonb refuses a lone UTF-16 surrogate (a raw body cut inside an emoji)
 * anywhere in the parameter, which would fail the whole batch, where
 * node-postgres used to send it as U+FFFD.
 */
export function storeRecord(input: NotificationInput, copies: number) {
  return {
    id: newEntityId("odntf"),
    source: input.source,
    dedupe_key: input.dedupe_key,
    session_id: wellFormed(input.session_id),
    service_uuid: wellFormed(input.service_uuid),
    status: wellFormed(input.status),
    type: wellFormed(input.type),
    payload: JSON.stringify(input.payload),
    raw_body: wellFormed(input.raw_body),
    state: input.state ?? "received",
    outcome: wellFormed(input.outcome ?? null),
    copies,
  }
}

const LONE_SURROGATES = new RegExp(LONE_SURROGATE.source, "g")

function wellFormed<T extends string | null>(text: T): T {
  return (text === null ? text : text.replace(LONE_SURROGATES, "\uFFFD")) as T
}

const PLAIN_KEY = /^[\x21-\x7e]{1,200}$/

function sameRow(a: NotificationInput, b: NotificationInput): boolean {
  return a.session_id === b.session_id && a.source === b.source && (a.state ?? "received") === (b.state ?? "received") && (a.outcome ?? null) === (b.outcome ?? null)
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
    // One negative answer is not final (the service may not have known the payment yet): asked again,
    // within the session's verify budget, after the copies it has not refused.
    .orderByRaw("(coalesce(verify_result->>'is_valid', '') = 'false'), created_at desc")
    .limit(limit)
    .select("id")
  return rows.map((r: { id: string }) => r.id)
}

/** How many notifications of a session and source are stored (only those not yet processed, with `open`), counted up to `atMost`. */
export async function countStored(db: Knex, sessionId: string, source: "return" | "webhook", atMost: number, open = false): Promise<number> {
  const { rows } = await db.raw(
    `select count(*)::int as n from (select 1 from ${NOTIFICATION} where session_id = ? and source = ? and deleted_at is null
       ${open ? "and state in ('received', 'retry', 'processing')" : ""} limit ?) r`,
    [sessionId, source, atMost]
  )
  return rows[0].n
}
