import { generateEntityId } from "@medusajs/framework/utils"
import type { Knex } from "@medusajs/framework/mikro-orm/knex"

/** A row of `odeme_notification` (model: src/modules/odeme/models/odeme-notification.ts). */
export interface NotificationRow {
  id: string
  source: "webhook" | "return" | "poll" | "admin"
  dedupe_key: string
  session_id: string | null
  service_uuid: string | null
  status: string | null
  type: string | null
  payload: Record<string, unknown>
  raw_body: string | null
  state: "received" | "processing" | "retry" | "done" | "dead"
  attempts: number
  next_attempt_at: Date | null
  locked_until: Date | null
  last_error: string | null
  verify_result: Record<string, unknown> | null
  outcome: string | null
  duplicate_count: number
  processed_at: Date | null
  created_at: Date
  updated_at: Date
}

const TABLE = "odeme_notification"

/**
 * The durable inbox. Everything that reaches the plugin from the service is
 * written here before it is answered; processing claims rows with a lease
 * (`locked_until`) so any number of processes can work the inbox and a
 * crashed worker's row is taken up again when its lease runs out.
 */
export class NotificationInbox {
  constructor(private readonly db: Knex) {}

  /** Stores a notification once; a repeat of the same dedupe key only counts as a duplicate. */
  async store(input: {
    source: NotificationRow["source"]
    dedupe_key: string
    session_id: string | null
    service_uuid: string | null
    status: string | null
    type: string | null
    payload: Record<string, unknown>
    raw_body: string | null
    state?: NotificationRow["state"]
  }): Promise<{ row: NotificationRow; duplicate: boolean }> {
    const { rows } = await this.db.raw(
      `insert into ${TABLE} (id, source, dedupe_key, session_id, service_uuid, status, type, payload, raw_body, state)
       values (?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?, ?)
       on conflict (dedupe_key) where deleted_at is null
       do update set duplicate_count = ${TABLE}.duplicate_count + 1, updated_at = now()
       returning *, (xmax = 0) as inserted`,
      [
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
      ]
    )
    const { inserted, ...row } = rows[0]
    return { row: row as NotificationRow, duplicate: !inserted }
  }

  async get(id: string): Promise<NotificationRow | null> {
    return ((await this.db(TABLE).whereNull("deleted_at").where({ id }).first()) as NotificationRow | undefined) ?? null
  }

  /** Takes a row for processing unless another process holds a live lease on it. */
  async claim(id: string, leaseSeconds = 120): Promise<NotificationRow | null> {
    const rows = (await this.db(TABLE)
      .whereNull("deleted_at")
      .where({ id })
      .whereIn("state", ["received", "retry", "processing"])
      .where((q) => q.whereNull("locked_until").orWhere("locked_until", "<", this.db.fn.now()))
      .update({
        state: "processing",
        locked_until: this.db.raw("now() + make_interval(secs => ?)", [Math.round(leaseSeconds)]),
        attempts: this.db.raw("attempts + 1"),
        updated_at: this.db.fn.now(),
      })
      .returning("*")) as NotificationRow[]
    return rows[0] ?? null
  }

  async finish(
    id: string,
    patch: Pick<NotificationRow, "outcome"> & Partial<Pick<NotificationRow, "verify_result" | "last_error">>
  ): Promise<void> {
    await this.db(TABLE)
      .where({ id })
      .update({
        state: "done",
        outcome: patch.outcome,
        verify_result: patch.verify_result === undefined ? undefined : JSON.stringify(patch.verify_result),
        last_error: patch.last_error ?? null,
        locked_until: null,
        next_attempt_at: null,
        processed_at: this.db.fn.now(),
        updated_at: this.db.fn.now(),
      })
  }

  /** Schedules another attempt, or marks the row dead after `maxAttempts`. */
  async retryLater(
    row: NotificationRow,
    error: string,
    maxAttempts: number,
    extra: Partial<Pick<NotificationRow, "verify_result" | "outcome">> = {}
  ): Promise<{ dead: boolean; delayMs: number }> {
    const dead = row.attempts >= maxAttempts
    const delayMs = backoffMs(row.attempts)
    await this.db(TABLE)
      .where({ id: row.id })
      .update({
        state: dead ? "dead" : "retry",
        last_error: error.slice(0, 1000),
        outcome: extra.outcome ?? (dead ? "dead" : row.outcome),
        verify_result: extra.verify_result === undefined ? undefined : JSON.stringify(extra.verify_result),
        next_attempt_at: dead ? null : new Date(Date.now() + delayMs),
        locked_until: null,
        updated_at: this.db.fn.now(),
      })
    return { dead, delayMs }
  }

  /** Rows whose next attempt is due (or whose lease ran out), oldest first. */
  async due(limit: number): Promise<NotificationRow[]> {
    return (await this.db(TABLE)
      .whereNull("deleted_at")
      .where((q) =>
        q
          .where((w) => w.whereIn("state", ["received", "retry"]).where((n) => n.whereNull("next_attempt_at").orWhere("next_attempt_at", "<=", this.db.fn.now())))
          .orWhere((w) => w.where("state", "processing").where("locked_until", "<", this.db.fn.now()))
      )
      .orderBy("created_at", "asc")
      .limit(limit)) as NotificationRow[]
  }

  /** Gives a finished or dead row another round (admin "check now" / "retry"). */
  async reopen(id: string): Promise<boolean> {
    const n = await this.db(TABLE)
      .where({ id })
      .whereIn("state", ["dead", "done"])
      .update({ state: "retry", attempts: 0, next_attempt_at: this.db.fn.now(), updated_at: this.db.fn.now() })
    return Number(n) > 0
  }
}

/** 2 s, 4 s, 8 s … capped at 10 minutes, with a little jitter. */
export function backoffMs(attempt: number): number {
  const base = Math.min(2_000 * 2 ** Math.max(0, attempt - 1), 600_000)
  return Math.round(base * (0.85 + Math.random() * 0.3))
}
