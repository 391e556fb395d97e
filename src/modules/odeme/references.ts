/**
 * The statements behind a payment's short reference (src/lib/order-reference.ts): the row that first
 * records a session takes one, and whatever the service sends back under `order_id` is read as a
 * reference or, for a session recorded before references, as the session id it always was.
 */
import type { Knex } from "@medusajs/framework/mikro-orm/knex"
import { newOrderReference } from "../../lib/order-reference"
import type { OdemePaymentRow } from "./types"
import { newEntityId, PAYMENT } from "./rows"

export type InitiatedRow = Pick<OdemePaymentRow, "session_id" | "provider" | "flow" | "mode" | "amount" | "currency"> & {
  metadata?: Record<string, unknown> | null
}

/**
 * A session's payment by `order_id` as the service sent it, as an SQL expression on `orderId` (an
 * expression of the caller's statement): its reference, else its session id (a session recorded before
 * references, or the return route, whose path names the session). The two never look alike (a reference
 * has a dash, a session id none), so one `order_id` is at most one session.
 */
export const SESSION_OF_ORDER_ID = (orderId: string) =>
  `coalesce((select p.session_id from ${PAYMENT} p where p.reference = ${orderId} and p.deleted_at is null),
    (select p.session_id from ${PAYMENT} p where p.session_id = ${orderId} and p.deleted_at is null))`

/** The session an `order_id` names (see SESSION_OF_ORDER_ID), or null when it is none of this store's. */
export async function sessionOfOrderId(db: Knex, orderId: string): Promise<string | null> {
  // The expression names its order id twice.
  const { rows } = await db.raw(`select ${SESSION_OF_ORDER_ID("?::text")} as session_id`, [orderId, orderId])
  return (rows[0]?.session_id as string | null | undefined) ?? null
}

/** How many references are drawn before a collision is taken for something else: each is one chance in a billion. */
const REFERENCE_ATTEMPTS = 5

/**
 * service.ts recordInitiated's statement: the first call for a session inserts its row with a new
 * reference; a later one (Medusa's updatePayment) keeps the reference it has, and refreshes amount and
 * currency only while nothing was asked of the service for them. A reference another payment already
 * holds is drawn again. Inside a caller's transaction each attempt is a savepoint, so a collision does
 * not end the transaction.
 */
export async function insertInitiated(db: Knex, row: InitiatedRow, prefix: string): Promise<OdemePaymentRow> {
  for (let attempt = 1; ; attempt++) {
    const reference = newOrderReference(prefix)
    try {
      const run = (k: Knex) => k.raw(INITIATED_SQL, initiatedValues(row, reference))
      const { rows } = await ((db as Knex & { isTransaction?: boolean }).isTransaction ? db.transaction((trx) => run(trx)) : run(db))
      return rows[0]
    } catch (err) {
      if (attempt >= REFERENCE_ATTEMPTS || !isReferenceCollision(err)) throw err
    }
  }
}

/** A unique violation of the reference's index (and not of the session's). */
export function isReferenceCollision(err: unknown): boolean {
  const e = err as { code?: string; constraint?: string } | null
  return e?.code === "23505" && e.constraint === "IDX_odeme_payment_reference_unique"
}

const INITIATED_SQL = `insert into ${PAYMENT} (id, session_id, reference, provider, flow, mode, amount, currency, metadata)
  values (?, ?, ?, ?, ?, ?, ?, ?, ?::jsonb)
  on conflict (session_id) where deleted_at is null
  do update set
    amount = case when ${PAYMENT}.status = 'pending' and ${PAYMENT}.creation_state in ('none', 'failed') then excluded.amount else ${PAYMENT}.amount end,
    currency = case when ${PAYMENT}.status = 'pending' and ${PAYMENT}.creation_state in ('none', 'failed') then excluded.currency else ${PAYMENT}.currency end,
    -- merged: what the plugin keeps there (noteMedusaRefusal) outlives a session initiated again
    metadata = case when excluded.metadata is null then ${PAYMENT}.metadata
      else coalesce(${PAYMENT}.metadata, '{}'::jsonb) || excluded.metadata end, updated_at = now()
  returning *`

function initiatedValues(row: InitiatedRow, reference: string): Knex.RawBinding[] {
  return [
    newEntityId("odpay"),
    row.session_id,
    reference,
    row.provider,
    row.flow,
    row.mode,
    row.amount,
    row.currency,
    row.metadata ? JSON.stringify(row.metadata) : null,
  ]
}
