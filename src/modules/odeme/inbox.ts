/**
 * The notification inbox: storing what arrives (one statement for a batch, the strays of other stores
 * counted in it), claiming a row for processing under a lease, settling or deferring it, what a session's
 * returns and webhooks say, and the webhooks' health. Each function runs on the knex the module service
 * (./service.ts) gives it; the batching of concurrent webhooks is ./notification-batcher.ts.
 */
import type { Knex } from "@medusajs/framework/mikro-orm/knex"
import { laneFor, type Lane } from "../../lib/notification-lane"
import { CLAIM_NOTIFICATION_SQL, STORE_SQL } from "./inbox-sql"
import { HEALTH, NOTIFICATION, OPEN_NOTIFICATION, PAYMENT, PLAIN_KEY, sameRow, storeRecord } from "./rows"
import type { NotificationInput, NotificationSettlement, OdemeNotificationRow, StoredNotification, StoreResult } from "./types"

/**
 * Stores notifications in one statement (STORE_SQL); the answer for each
 * input, in order (null: the session is none of this store's payments).
 * Copies with the same dedupe key in one call are one row: the first is
 * new or a duplicate as the table says, the others are duplicates of it. A
 * copy that would be another row (another session, source or state) goes
 * in a statement of its own after. Each statement stands alone: an answer
 * is final once its own statement committed.
 */
export async function storeNotifications(db: Knex, inputs: NotificationInput[]): Promise<StoreResult[]> {
  const groups = new Map<string, { input: NotificationInput; copies: number }>()
  const now: number[] = []
  const later: number[] = []
  inputs.forEach((input, i) => {
    // Answers are matched by the key PostgreSQL returns: it must come back as it went (contentKey's `c:` + hex).
    if (!PLAIN_KEY.test(input.dedupe_key))
      throw new Error(`notification dedupe key is not plain ASCII: ${JSON.stringify(input.dedupe_key.slice(0, 80))}`)
    const group = groups.get(input.dedupe_key)
    if (!group) groups.set(input.dedupe_key, { input, copies: 1 })
    else if (sameRow(group.input, input)) {
      group.copies++
      if (input.trusted) group.input = { ...group.input, trusted: true }
    } else return void later.push(i)
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
    const rest = await storeNotifications(
      db,
      later.map((i) => inputs[i])
    )
    later.forEach((i, k) => (answers[i] = rest[k]))
  }
  return answers
}

export async function getNotification(db: Knex, id: string): Promise<OdemeNotificationRow | null> {
  return ((await db(NOTIFICATION).whereNull("deleted_at").where({ id }).first()) as OdemeNotificationRow | undefined) ?? null
}

/**
 * Takes a row for processing when it is due and no other process holds a
 * live lease on it; a row waiting for its retry is not due: repeats cannot
 * skip the backoff.
 *
 * A delivery nothing proved (`trusted` false) is a turn of its session's
 * lane, not a claim on its own row: the session's due unproven row that is
 * next goes (`lane`: the newest, or the oldest for its share), so forged
 * copies stored before a genuine one cannot hold it back once they stop
 * coming (docs/reliability.md). `exact` takes the row itself (Admin's retry,
 * a proven return).
 */
export async function claimNotification(db: Knex, id: string, leaseSeconds: number, lane: Lane = "exact"): Promise<OdemeNotificationRow | null> {
  const { rows } = await db.raw(CLAIM_NOTIFICATION_SQL, { id, lane, lease: Math.round(leaseSeconds) })
  return (rows[0] as OdemeNotificationRow | undefined) ?? null
}

/** Which end of its session's lane a turn of this row takes (lib/notification-lane.ts). */
export async function laneOf(db: Knex, id: string, windowSeconds: number): Promise<Lane> {
  const { rows } = await db.raw(
    `select n.trusted, p.verify_calls, p.verify_window_started_at > now() - make_interval(secs => ?) as window_open
     from ${NOTIFICATION} n left join ${PAYMENT} p on p.session_id = n.session_id and p.deleted_at is null
     where n.id = ? and n.deleted_at is null`,
    [windowSeconds, id]
  )
  return laneFor(rows[0] ?? null)
}

/** Ends a processing attempt: done, retry at a time, or dead. */
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

/** Puts a claimed row back until `at` without counting an attempt (verify budget spent); counts the deferral. */
export async function deferNotification(db: Knex, id: string, at: Date): Promise<void> {
  await db(NOTIFICATION)
    .where({ id, state: "processing" })
    .update({
      state: "retry",
      next_attempt_at: at,
      locked_until: null,
      attempts: db.raw("greatest(attempts - 1, 0)"),
      deferrals: db.raw("deferrals + 1"),
      updated_at: db.fn.now(),
    })
}

/** Ids of rows whose attempt is due (or whose lease ran out): proven deliveries first, then oldest first. */
export async function dueNotificationIds(db: Knex, limit: number): Promise<string[]> {
  const rows = await db(NOTIFICATION)
    .whereNull("deleted_at")
    .whereIn("state", ["received", "retry", "processing"])
    .where(whereDue(db))
    .orderBy([
      { column: "trusted", order: "desc" },
      { column: "created_at", order: "asc" },
    ])
    .limit(limit)
    .select("id")
  return rows.map((r: { id: string }) => r.id)
}

/** Gives a finished or dead row another round (admin "retry" / "check now"). */
export async function reopenNotification(db: Knex, id: string): Promise<boolean> {
  const n = await db(NOTIFICATION)
    .where({ id })
    .whereIn("state", ["dead", "done"])
    .whereNotNull("service_uuid")
    .update({ state: "retry", attempts: 0, next_attempt_at: db.fn.now(), updated_at: db.fn.now() })
  return Number(n) > 0
}

/**
 * How many redirects of a session are stored (up to `atMost`), of those with the session's proof or of those
 * without: each bounded on its own, so returns anyone can send never crowd out the customer's own.
 */
export async function countReturns(db: Knex, sessionId: string, proven: boolean, atMost: number): Promise<number> {
  return countStored(db, sessionId, "return", atMost, { trusted: proven })
}

/** Whether the customer came back from the payment page saying "paid" (a redirect: navigation, never proof). */
export async function hasPaidReturn(db: Knex, sessionId: string): Promise<boolean> {
  const row = await db(NOTIFICATION)
    .whereNull("deleted_at")
    .where({ session_id: sessionId, source: "return", status: "successful" })
    .where({ trusted: true })
    .first("id")
  return !!row
}

/** How many webhooks of a session wait to be processed (up to `atMost`). */
export async function countOpenWebhooks(db: Knex, sessionId: string, atMost: number): Promise<number> {
  return countStored(db, sessionId, "webhook", atMost, { open: true })
}

/** The session's notifications that the verify endpoint can judge, newest first (refused ones last). */
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

/**
 * When the last webhook arrived, how many came in 24 hours, and how many of
 * those came through Medusa's generic hook route and were genuine (verify
 * said so: anyone can post junk for a session id there, and must not make
 * the page tell the merchant the panel is wrong). Settings → Odeme; only the
 * admin page asks.
 */
export async function webhookHealth(db: Knex): Promise<{ last_webhook_at: Date | null; webhooks_24h: number; medusa_hook_24h: number }> {
  const { rows } = await db.raw(
    `select max(created_at) as last_webhook_at,
       count(*) filter (where created_at > now() - interval '24 hours')::int as webhooks_24h,
       count(*) filter (where created_at > now() - interval '24 hours' and payload->>'medusa_hook' = 'true'
         and verify_result->>'is_valid' = 'true')::int as medusa_hook_24h
     from ${NOTIFICATION} where deleted_at is null and source = 'webhook'`
  )
  return {
    last_webhook_at: rows[0]?.last_webhook_at ?? null,
    webhooks_24h: rows[0]?.webhooks_24h ?? 0,
    medusa_hook_24h: rows[0]?.medusa_hook_24h ?? 0,
  }
}

/** Notifications for references this store never made: how many, when the last came, and the last few. */
export async function strayNotifications(
  db: Knex
): Promise<{ count: number; last_at: Date | null; recent: Array<{ order_id: string; status: string | null; at: string }> }> {
  const row = await db(HEALTH).where({ id: "stray_notifications" }).first("count", "last_at", "recent")
  return { count: row?.count ?? 0, last_at: row?.last_at ?? null, recent: (row?.recent as never) ?? [] }
}

/**
 * A row is due when it waits for a first attempt or its retry time came, or
 * when the process that held it let its lease run out. The partial index
 * IDX_odeme_notification_open holds exactly the rows this can match.
 */
function whereDue(db: Knex) {
  return (q: Knex.QueryBuilder) =>
    q
      .where((w) =>
        w.whereIn("state", ["received", "retry"]).where((n) => n.whereNull("next_attempt_at").orWhere("next_attempt_at", "<=", db.fn.now()))
      )
      .orWhere((w) => w.where("state", "processing").where("locked_until", "<", db.fn.now()))
}

/** How many notifications of a session and source are stored (only those not yet processed, or of one proof), counted up to `atMost`. */
async function countStored(
  db: Knex,
  sessionId: string,
  source: "return" | "webhook",
  atMost: number,
  only: { open?: boolean; trusted?: boolean } = {}
): Promise<number> {
  const { rows } = await db.raw(
    `select count(*)::int as n from (select 1 from ${NOTIFICATION} where session_id = ? and source = ? and deleted_at is null
       ${only.open ? `and ${OPEN_NOTIFICATION}` : ""} ${only.trusted === undefined ? "" : `and trusted = ${only.trusted ? "true" : "false"}`} limit ?) r`,
    [sessionId, source, atMost]
  )
  return rows[0].n
}
