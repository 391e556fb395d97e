import { generateEntityId } from "@medusajs/framework/utils"
import type { Knex } from "@medusajs/framework/mikro-orm/knex"
import type { OdemeState } from "./status"

/** A row of `odeme_payment` (model: src/modules/odeme/models/odeme-payment.ts). */
export interface OdemePaymentRow {
  id: string
  session_id: string
  provider: string
  flow: string | null
  mode: string
  amount: string
  currency: string
  status: OdemeState
  creation_state: "none" | "creating" | "created" | "failed" | "unknown"
  creation_started_at: Date | null
  service_uuid: string | null
  tracking_no: string | null
  payer_name: string | null
  bank_id: number | null
  bank_name: string | null
  account_holder: string | null
  iban: string | null
  charged_amount: string | null
  charged_currency: string | null
  next_check_at: Date | null
  check_attempts: number
  last_checked_at: Date | null
  last_result: string | null
  review_reason: string | null
  cart_id: string | null
  order_id: string | null
  metadata: Record<string, unknown> | null
  created_at: Date
  updated_at: Date
}

export type OdemePaymentPatch = Partial<Omit<OdemePaymentRow, "id" | "session_id" | "created_at" | "updated_at">>

const TABLE = "odeme_payment"

/**
 * SQL access to the plugin's payment table. Payment providers live in the
 * payment module's container, which cannot resolve the plugin's module, but
 * it does hold the shared PostgreSQL connection; atomic claims on this table
 * are what make "one transfer per session" hold across processes.
 */
export class PaymentStore {
  constructor(private readonly db: Knex) {}

  private table() {
    return this.db(TABLE).whereNull("deleted_at")
  }

  async get(sessionId: string): Promise<OdemePaymentRow | null> {
    return ((await this.table().where({ session_id: sessionId }).first()) as OdemePaymentRow | undefined) ?? null
  }

  /** Records a session when it is initiated; a second call only refreshes amount and currency. */
  async upsertInitiated(row: {
    session_id: string
    provider: string
    flow: string | null
    mode: string
    amount: string
    currency: string
  }): Promise<OdemePaymentRow> {
    const [saved] = await this.db
      .raw(
        `insert into ${TABLE} (id, session_id, provider, flow, mode, amount, currency)
         values (?, ?, ?, ?, ?, ?, ?)
         on conflict (session_id) where deleted_at is null
         do update set amount = excluded.amount, currency = excluded.currency, updated_at = now()
         returning *`,
        [generateEntityId(undefined, "odpay"), row.session_id, row.provider, row.flow, row.mode, row.amount, row.currency]
      )
      .then((r: { rows: OdemePaymentRow[] }) => r.rows)
    return saved
  }

  /**
   * Takes the right to create the service-side transfer for a session. Only
   * one caller ever wins while nothing was created; a definitive refusal by
   * the service ("failed") may be retried, an unknown outcome may not.
   */
  async claimCreation(sessionId: string, patch: OdemePaymentPatch): Promise<OdemePaymentRow | null> {
    const rows = (await this.db(TABLE)
      .whereNull("deleted_at")
      .where({ session_id: sessionId })
      .whereIn("creation_state", ["none", "failed"])
      .update({ ...serialize(patch), creation_state: "creating", creation_started_at: new Date(), updated_at: new Date() })
      .returning("*")) as OdemePaymentRow[]
    return rows[0] ?? null
  }

  /**
   * Claims up to `limit` transfers whose check is due, newest first, by moving
   * their `next_check_at` past a lease. SKIP LOCKED plus the move means two
   * pollers (or two servers) never take the same transfer; a row whose
   * poller died becomes due again when the lease ends.
   */
  async claimDueTransfers(limit: number, leaseSeconds: number): Promise<OdemePaymentRow[]> {
    const { rows } = await this.db.raw(
      `update ${TABLE} set next_check_at = now() + make_interval(secs => ?), updated_at = now()
       where id in (
         select id from ${TABLE}
         where deleted_at is null and status = 'awaiting_transfer' and next_check_at <= now()
         order by created_at desc
         limit ?
         for update skip locked
       )
       returning *`,
      [leaseSeconds, limit]
    )
    return rows as OdemePaymentRow[]
  }

  async update(sessionId: string, patch: OdemePaymentPatch): Promise<OdemePaymentRow | null> {
    const rows = (await this.db(TABLE)
      .whereNull("deleted_at")
      .where({ session_id: sessionId })
      .update({ ...serialize(patch), updated_at: new Date() })
      .returning("*")) as OdemePaymentRow[]
    return rows[0] ?? null
  }

  /** Compare-and-set on `status`, so two writers never both "win" a transition. */
  async transition(
    sessionId: string,
    from: OdemeState[],
    patch: OdemePaymentPatch & { status: OdemeState }
  ): Promise<OdemePaymentRow | null> {
    const rows = (await this.db(TABLE)
      .whereNull("deleted_at")
      .where({ session_id: sessionId })
      .whereIn("status", from)
      .update({ ...serialize(patch), updated_at: new Date() })
      .returning("*")) as OdemePaymentRow[]
    return rows[0] ?? null
  }
}

function serialize(patch: OdemePaymentPatch): Record<string, unknown> {
  const out: Record<string, unknown> = { ...patch }
  if (patch.metadata !== undefined) out.metadata = patch.metadata === null ? null : JSON.stringify(patch.metadata)
  return out
}
