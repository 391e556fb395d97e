/**
 * What the module's statements share: table names, the SQL fragments more
 * than one seam reads, the knex of the injected manager, how values become
 * columns, and ids. The statements themselves are in the seams (ledger.ts,
 * claims.ts, inbox.ts, attention.ts and their *-sql.ts files).
 */
import { randomFillSync } from "node:crypto"
import type { Context } from "@medusajs/framework/types"
import type { Knex } from "@medusajs/framework/mikro-orm/knex"
import { LONE_SURROGATE } from "../../lib/notification-shape"
import type { NotificationInput } from "./types"

export const PAYMENT = "odeme_payment"
export const NOTIFICATION = "odeme_notification"
export const CHARGE = "odeme_charge"
export const REFUND = "odeme_refund"
export const HEALTH = "odeme_health"
const JSON_COLUMNS = new Set(["metadata", "payload", "verify_result"])

/** A notification still to be processed (IDX_odeme_notification_open's predicate). */
export const OPEN_NOTIFICATION = "state in ('received', 'retry', 'processing')"

/**
 * The rows the poller asks about. The partial index IDX_odeme_payment_poll
 * (models/odeme-payment.ts) holds exactly these, so finished payments, however
 * many, cost the claim nothing.
 */
export const POLL_WHERE = `deleted_at is null and service_uuid is not null and next_check_at is not null and status in ('awaiting_transfer', 'unknown', 'paid', 'canceled')`

type Manager = { getKnex(): Knex; getTransactionContext(): Knex.Transaction | undefined }

/**
 * The knex to run a method's statements on: the transaction of
 * `@InjectTransactionManager` (or one the caller passed), else the knex of
 * the manager `@InjectManager` injected.
 */
export function knexOf(ctx: Context): Knex {
  const tx = ctx.transactionManager as Manager | undefined
  if (tx) return tx.getTransactionContext() ?? tx.getKnex()
  return (ctx.manager as unknown as Manager).getKnex()
}

/** An update patch as columns: undefined left out, JSON columns encoded. */
export function serialize(patch: object): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(patch)) {
    if (v === undefined) continue
    out[k] = JSON_COLUMNS.has(k) && v !== null ? JSON.stringify(v) : v
  }
  return out
}

// ---- ids ----------------------------------------------------------------------

/** Crockford's base32, as ULIDs spell it. */
const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
const POOL_SIZE = 4096
const pool = Buffer.alloc(POOL_SIZE)
let offset = POOL_SIZE

/**
 * `prefix_` and a ULID (48-bit time, 80 random bits), the shape of Medusa's
 * `generateEntityId`. Medusa's draws each random character with its own
 * `crypto.randomBytes(1)` call, on the webhook route's path a hundred ids at
 * a time for a batch; this one reads the random bits from a pooled buffer
 * (refilled from the same CSPRNG). Figures: docs/performance.md.
 */
export function newEntityId(prefix: string): string {
  if (offset + 16 > POOL_SIZE) {
    randomFillSync(pool)
    offset = 0
  }
  let time = ""
  for (let t = Date.now(), i = 0; i < 10; i++, t = Math.floor(t / 32)) time = ALPHABET[t % 32] + time
  let random = ""
  // 256 is a multiple of 32: the low five bits of a random byte are uniform.
  for (let i = 0; i < 16; i++) random += ALPHABET[pool[offset++] & 31]
  return `${prefix}_${time}${random}`
}

// ---- notification records -------------------------------------------------------

/**
 * One row of the inbox statement's parameter (inbox-sql.ts STORE_SQL). The
 * payload stays text in it, cast only for rows whose session exists. Text
 * columns are made well-formed first: jsonb refuses a lone UTF-16 surrogate
 * (a raw body cut inside an emoji) anywhere in the parameter, which would
 * fail the whole batch, where node-postgres used to send it as U+FFFD.
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
    trusted: input.trusted ?? false,
  }
}

const LONE_SURROGATES = new RegExp(LONE_SURROGATE.source, "g")

function wellFormed<T extends string | null>(text: T): T {
  return (text === null ? text : text.replace(LONE_SURROGATES, "\uFFFD")) as T
}

/** Keys that come back from PostgreSQL as they went (answers are matched by them). */
export const PLAIN_KEY = /^[\x21-\x7e]{1,200}$/

/** Two copies of one key that would be the same row. */
export function sameRow(a: NotificationInput, b: NotificationInput): boolean {
  return (
    a.session_id === b.session_id &&
    a.source === b.source &&
    (a.state ?? "received") === (b.state ?? "received") &&
    (a.outcome ?? null) === (b.outcome ?? null)
  )
}
