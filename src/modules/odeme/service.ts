import type { Context, InferTypeOf } from "@medusajs/framework/types"
import { generateEntityId, InjectManager, MedusaContext, MedusaService } from "@medusajs/framework/utils"
import type { Knex } from "@medusajs/framework/mikro-orm/knex"
import type { OdemeClient } from "../../client"
import type { AttentionKind } from "../../lib/attention-types"
import type { BankDirectory } from "../../lib/bank-directory"
import { registerPluginOptions, type OdemeOptions } from "../../lib/options"
import { createServiceClient } from "../../lib/service-client"
import OdemeCharge from "./models/odeme-charge"
import OdemeNotification from "./models/odeme-notification"
import OdemePayment from "./models/odeme-payment"
import type { ChargeRole, ChargeStatus, NotificationSource, PaymentState, ReviewCode } from "./models/states"

type Logger = { debug(m: string): void; warn(m: string): void; error(m: string): void }

export type OdemePaymentRow = InferTypeOf<typeof OdemePayment>
export type OdemeNotificationRow = Omit<InferTypeOf<typeof OdemeNotification>, "payload" | "verify_result"> & {
  payload: Record<string, unknown>
  verify_result: Record<string, unknown> | null
}
export type OdemeChargeRow = InferTypeOf<typeof OdemeCharge>

/** Columns that record what happened; never the state (see `compareAndSetState`). */
export type PaymentDetails = Partial<
  Pick<
    OdemePaymentRow,
    | "flow"
    | "service_uuid"
    | "tracking_no"
    | "payer_name"
    | "bank_id"
    | "bank_name"
    | "account_holder"
    | "iban"
    | "charged_amount"
    | "charged_currency"
    | "next_check_at"
    | "check_attempts"
    | "last_checked_at"
    | "last_result"
    | "cart_id"
    | "order_id"
    | "metadata"
  >
>

export interface StateChange extends PaymentDetails {
  status: PaymentState
  review_code: ReviewCode | null
  review_reason: string | null
}

/** How a processing attempt of a notification ended. */
export type NotificationSettlement =
  | { state: "done"; outcome: string; verify_result?: unknown; last_error?: string | null }
  | { state: "retry"; outcome: string; next_attempt_at: Date; last_error: string; verify_result?: unknown }
  | { state: "dead"; outcome: string; last_error: string; verify_result?: unknown }

const PAYMENT = "odeme_payment"
const NOTIFICATION = "odeme_notification"
const CHARGE = "odeme_charge"
const JSON_COLUMNS = new Set(["metadata", "payload", "verify_result"])

/**
 * The plugin's module: its tables (payments, charges, notification inbox),
 * the SQL that keeps them consistent under concurrency, and the configured
 * service client. Every atomic claim and compare-and-set lives here; the
 * rest of the plugin calls these methods and never touches the tables.
 */
class OdemeModuleService extends MedusaService({
  OdemePayment,
  OdemeNotification,
  OdemeCharge,
}) {
  readonly odemeOptions: OdemeOptions
  readonly client: OdemeClient
  readonly banks: BankDirectory

  constructor(container: Record<string, unknown>, options: Record<string, unknown>) {
    // eslint-disable-next-line prefer-rest-params
    super(...(arguments as unknown as [Record<string, unknown>]))
    // Also compares with the options the payment provider was given (a boot error if they differ).
    this.odemeOptions = registerPluginOptions(options)
    const { client, banks } = createServiceClient(this.odemeOptions, container.logger as Logger | undefined)
    this.client = client
    this.banks = banks
  }

  // ---- payments -----------------------------------------------------------

  @InjectManager()
  async getPayment(sessionId: string, @MedusaContext() ctx: Context = {}): Promise<OdemePaymentRow | null> {
    const row = await knexOf(ctx)(PAYMENT).whereNull("deleted_at").where({ session_id: sessionId }).first()
    return (row as OdemePaymentRow | undefined) ?? null
  }

  /** Records a session when it is initiated; a second call only refreshes amount and currency. */
  @InjectManager()
  async recordInitiated(
    row: Pick<OdemePaymentRow, "session_id" | "provider" | "flow" | "mode" | "amount" | "currency"> & { metadata?: Record<string, unknown> | null },
    @MedusaContext() ctx: Context = {}
  ): Promise<OdemePaymentRow> {
    const { rows } = await knexOf(ctx).raw(
      `insert into ${PAYMENT} (id, session_id, provider, flow, mode, amount, currency, metadata)
       values (?, ?, ?, ?, ?, ?, ?, ?::jsonb)
       on conflict (session_id) where deleted_at is null
       do update set amount = excluded.amount, currency = excluded.currency,
         metadata = coalesce(excluded.metadata, ${PAYMENT}.metadata), updated_at = now()
       returning *`,
      [
        generateEntityId(undefined, "odpay"),
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

  /**
   * Takes the right to create the service-side transfer for a session. Only
   * one caller ever wins while nothing was created; a refusal by the service
   * ("failed") may be retried, an unknown outcome never.
   */
  @InjectManager()
  async claimTransferCreation(sessionId: string, details: PaymentDetails, @MedusaContext() ctx: Context = {}): Promise<OdemePaymentRow | null> {
    const rows = await knexOf(ctx)(PAYMENT)
      .whereNull("deleted_at")
      .where({ session_id: sessionId, status: "pending" })
      .whereIn("creation_state", ["none", "failed"])
      .update({ ...serialize(details), creation_state: "creating", creation_started_at: new Date(), updated_at: new Date() })
      .returning("*")
    return (rows[0] as OdemePaymentRow | undefined) ?? null
  }

  @InjectManager()
  async endTransferCreation(
    sessionId: string,
    outcome: { creation_state: "created" | "failed" | "unknown" } & PaymentDetails,
    @MedusaContext() ctx: Context = {}
  ): Promise<OdemePaymentRow | null> {
    const rows = await knexOf(ctx)(PAYMENT)
      .whereNull("deleted_at")
      .where({ session_id: sessionId, creation_state: "creating" })
      .update({ ...serialize(outcome), updated_at: new Date() })
      .returning("*")
    return (rows[0] as OdemePaymentRow | undefined) ?? null
  }

  /** Records what was learned about a payment; the state is not touched here. */
  @InjectManager()
  async updatePaymentDetails(sessionId: string, details: PaymentDetails, @MedusaContext() ctx: Context = {}): Promise<OdemePaymentRow | null> {
    const rows = await knexOf(ctx)(PAYMENT)
      .whereNull("deleted_at")
      .where({ session_id: sessionId })
      .update({ ...serialize(details), updated_at: new Date() })
      .returning("*")
    return (rows[0] as OdemePaymentRow | undefined) ?? null
  }

  /**
   * The only write of a payment's state: succeeds only if nobody moved the
   * payment since `version` was read. Called by the transition function
   * (src/lib/payment-state/apply-service-answer.ts) and nothing else.
   */
  @InjectManager()
  async compareAndSetState(sessionId: string, version: number, change: StateChange, @MedusaContext() ctx: Context = {}): Promise<OdemePaymentRow | null> {
    const rows = await knexOf(ctx)(PAYMENT)
      .whereNull("deleted_at")
      .where({ session_id: sessionId, version })
      .update({ ...serialize(change), version: version + 1, updated_at: new Date() })
      .returning("*")
    return (rows[0] as OdemePaymentRow | undefined) ?? null
  }

  /**
   * Claims up to `limit` transfers whose check is due, newest first, by moving
   * their `next_check_at` past a lease. SKIP LOCKED plus the move means two
   * pollers never take the same transfer; a row whose poller died becomes
   * due again when the lease ends. `unknown` transfers are asked about too
   * once a notification told their uuid, and a paid one whose settling in
   * Medusa failed stays due until it is settled.
   */
  @InjectManager()
  async claimDueTransfers(limit: number, leaseSeconds: number, @MedusaContext() ctx: Context = {}): Promise<OdemePaymentRow[]> {
    const { rows } = await knexOf(ctx).raw(
      `update ${PAYMENT} set next_check_at = now() + make_interval(secs => ?), updated_at = now()
       where id in (
         select id from ${PAYMENT}
         where deleted_at is null and status in ('awaiting_transfer', 'unknown', 'paid') and next_check_at <= now()
           and service_uuid is not null
         order by created_at desc
         limit ?
         for update skip locked
       )
       returning *`,
      [leaseSeconds, limit]
    )
    return rows
  }

  /**
   * Takes one verify call from the session's budget for the current window;
   * when it is spent, says when the next window opens.
   */
  @InjectManager()
  async takeVerifyBudget(
    sessionId: string,
    budget: number,
    windowSeconds: number,
    @MedusaContext() ctx: Context = {}
  ): Promise<{ ok: true } | { ok: false; retryAt: Date }> {
    const db = knexOf(ctx)
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

  // ---- charges --------------------------------------------------------------

  /** Records a service payment of a session (one row per uuid); a later answer updates it. */
  @InjectManager()
  async recordCharge(
    charge: Pick<OdemeChargeRow, "session_id" | "service_uuid" | "status"> &
      Partial<Pick<OdemeChargeRow, "type" | "amount" | "currency" | "detail">> & { role?: ChargeRole; verified: boolean },
    @MedusaContext() ctx: Context = {}
  ): Promise<OdemeChargeRow> {
    const { rows } = await knexOf(ctx).raw(
      `insert into ${CHARGE} (id, session_id, service_uuid, status, role, type, amount, currency, detail, verified_at)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?, ${charge.verified ? "now()" : "null"})
       on conflict (session_id, service_uuid) where deleted_at is null
       do update set
         -- Money reported once stays reported: a later pending or failed answer never hides a success.
         status = case when ${CHARGE}.status = 'successful' then ${CHARGE}.status else excluded.status end,
         role = coalesce(?, ${CHARGE}.role),
         type = coalesce(excluded.type, ${CHARGE}.type),
         amount = coalesce(excluded.amount, ${CHARGE}.amount),
         currency = coalesce(excluded.currency, ${CHARGE}.currency),
         detail = coalesce(excluded.detail, ${CHARGE}.detail),
         verified_at = coalesce(${CHARGE}.verified_at, excluded.verified_at),
         updated_at = now()
       returning *`,
      [
        generateEntityId(undefined, "odchg"),
        charge.session_id,
        charge.service_uuid,
        charge.status,
        charge.role ?? "none",
        charge.type ?? null,
        charge.amount ?? null,
        charge.currency ?? null,
        charge.detail ?? null,
        // "none" only for a new row: it never overwrites a role already given.
        charge.role && charge.role !== "none" ? charge.role : null,
      ]
    )
    return rows[0]
  }

  @InjectManager()
  async acknowledgeCharge(id: string, actor: string | null, @MedusaContext() ctx: Context = {}): Promise<OdemeChargeRow | null> {
    const rows = await knexOf(ctx)(CHARGE)
      .whereNull("deleted_at")
      .where({ id })
      .whereIn("role", ["duplicate", "late", "rejected"])
      .update({ acknowledged_at: knexOf(ctx).raw("coalesce(acknowledged_at, now())"), acknowledged_by: actor, updated_at: new Date() })
      .returning("*")
    return (rows[0] as OdemeChargeRow | undefined) ?? null
  }

  // ---- notification inbox -----------------------------------------------------

  /**
   * Stores a notification for a known session in one statement: the insert
   * happens only if the session is one of this store's payments; a repeat of
   * the same content only counts as a duplicate. Null: unknown session.
   */
  @InjectManager()
  async storeNotification(
    input: {
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
    },
    @MedusaContext() ctx: Context = {}
  ): Promise<{ row: OdemeNotificationRow; duplicate: boolean } | null> {
    const { rows } = await knexOf(ctx).raw(
      `insert into ${NOTIFICATION} (id, source, dedupe_key, session_id, service_uuid, status, type, payload, raw_body, state, outcome, processed_at)
       select ?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?, ?, ?, ${input.state === "done" ? "now()" : "null"}
       where exists (select 1 from ${PAYMENT} where session_id = ? and deleted_at is null)
       on conflict (dedupe_key) where deleted_at is null
       do update set duplicate_count = ${NOTIFICATION}.duplicate_count + 1, updated_at = now(),
         -- The service delivering a dead notification again gives it another round.
         state = case when ${NOTIFICATION}.state = 'dead' then 'retry' else ${NOTIFICATION}.state end,
         attempts = case when ${NOTIFICATION}.state = 'dead' then 0 else ${NOTIFICATION}.attempts end,
         next_attempt_at = case when ${NOTIFICATION}.state = 'dead' then now() else ${NOTIFICATION}.next_attempt_at end
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
        input.outcome ?? null,
        input.session_id,
      ]
    )
    if (!rows.length) return null
    const { inserted, ...row } = rows[0]
    return { row, duplicate: !inserted }
  }

  @InjectManager()
  async getNotification(id: string, @MedusaContext() ctx: Context = {}): Promise<OdemeNotificationRow | null> {
    return ((await knexOf(ctx)(NOTIFICATION).whereNull("deleted_at").where({ id }).first()) as OdemeNotificationRow | undefined) ?? null
  }

  /**
   * Takes a row for processing when it is due and no other process holds a
   * live lease on it. A row waiting for its retry is not due: repeats of it
   * cannot skip the backoff.
   */
  @InjectManager()
  async claimNotification(id: string, leaseSeconds: number, @MedusaContext() ctx: Context = {}): Promise<OdemeNotificationRow | null> {
    const db = knexOf(ctx)
    const rows = await db(NOTIFICATION)
      .whereNull("deleted_at")
      .where({ id })
      .where((q) =>
        q
          .where((w) => w.whereIn("state", ["received", "retry"]).where((n) => n.whereNull("next_attempt_at").orWhere("next_attempt_at", "<=", db.fn.now())))
          .orWhere((w) => w.where("state", "processing").where("locked_until", "<", db.fn.now()))
      )
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

  /** Ends a processing attempt: done, retry at a time, or dead. */
  @InjectManager()
  async settleNotification(id: string, end: NotificationSettlement, @MedusaContext() ctx: Context = {}): Promise<void> {
    const db = knexOf(ctx)
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

  /** Puts a claimed row back until `at` without counting an attempt (verify budget spent). */
  @InjectManager()
  async deferNotification(id: string, at: Date, @MedusaContext() ctx: Context = {}): Promise<void> {
    const db = knexOf(ctx)
    await db(NOTIFICATION)
      .where({ id, state: "processing" })
      .update({ state: "retry", next_attempt_at: at, locked_until: null, attempts: db.raw("greatest(attempts - 1, 0)"), updated_at: db.fn.now() })
  }

  /** Ids of rows whose attempt is due (or whose lease ran out), oldest first. */
  @InjectManager()
  async dueNotificationIds(limit: number, @MedusaContext() ctx: Context = {}): Promise<string[]> {
    const db = knexOf(ctx)
    const rows = await db(NOTIFICATION)
      .whereNull("deleted_at")
      .where((q) =>
        q
          .where((w) => w.whereIn("state", ["received", "retry"]).where((n) => n.whereNull("next_attempt_at").orWhere("next_attempt_at", "<=", db.fn.now())))
          .orWhere((w) => w.where("state", "processing").where("locked_until", "<", db.fn.now()))
      )
      .orderBy("created_at", "asc")
      .limit(limit)
      .select("id")
    return rows.map((r: { id: string }) => r.id)
  }

  /** Gives a finished or dead row another round (admin "retry" / "check now"). */
  @InjectManager()
  async reopenNotification(id: string, @MedusaContext() ctx: Context = {}): Promise<boolean> {
    const db = knexOf(ctx)
    const n = await db(NOTIFICATION)
      .where({ id })
      .whereIn("state", ["dead", "done"])
      .whereNotNull("service_uuid")
      .update({ state: "retry", attempts: 0, next_attempt_at: db.fn.now(), updated_at: db.fn.now() })
    return Number(n) > 0
  }

  /** The session's notifications that the verify endpoint can judge (and did not refuse), newest first. */
  @InjectManager()
  async verifiableNotificationIds(sessionId: string, limit: number, @MedusaContext() ctx: Context = {}): Promise<string[]> {
    const rows = await knexOf(ctx)(NOTIFICATION)
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

  // ---- what needs a person ------------------------------------------------------

  /**
   * What a person must look at, newest first, with counts: payments in
   * review or unknown; charges that came twice or too late and were not yet
   * acknowledged (a late success is listed as its charge, which can be
   * acknowledged once refunded or accepted); dead notifications.
   */
  @InjectManager()
  async listAttention(
    page: { limit: number; offset: number; sessionIds?: string[] },
    @MedusaContext() ctx: Context = {}
  ): Promise<{ rows: AttentionRow[]; counts: Record<AttentionKind, number> }> {
    const db = knexOf(ctx)
    const only = page.sessionIds ? ` where session_id = any(?)` : ""
    const bindings = page.sessionIds ? [page.sessionIds] : []
    const union = `
      select 'payment:' || p.id as id, case when p.status = 'unknown' then 'unknown_outcome' else 'review' end as kind,
        coalesce(p.review_code::text, case when p.status = 'unknown' then 'creation_unknown' else 'review' end) as code,
        p.session_id, p.provider, p.amount, p.currency, p.order_id, p.cart_id,
        p.service_uuid, null::text as notification_id, null::text as charge_id, p.review_reason as detail, p.updated_at as since
      from ${PAYMENT} p where p.deleted_at is null and p.status in ('review', 'unknown')
        and coalesce(p.review_code::text, '') not in ('late_success', 'session_gone')
      union all
      select 'charge:' || c.id, case when c.role = 'duplicate' then 'duplicate_charge' else 'review' end,
        case when c.role = 'duplicate' then 'duplicate_charge' when c.role = 'rejected' then 'amount_mismatch'
          else coalesce(p.review_code::text, 'late_success') end,
        c.session_id, p.provider, c.amount, c.currency, p.order_id, p.cart_id,
        c.service_uuid, null, c.id, c.detail, c.updated_at
      from ${CHARGE} c left join ${PAYMENT} p on p.session_id = c.session_id and p.deleted_at is null
      where c.deleted_at is null and c.status = 'successful' and c.acknowledged_at is null
        and (c.role in ('duplicate', 'late')
          -- a verified success for another amount, while the session was paid by another payment: money to give back
          or (c.role = 'rejected' and p.status = 'paid' and p.service_uuid is distinct from c.service_uuid))
      union all
      select 'notification:' || n.id, 'dead_notification', 'notification_dead',
        n.session_id, p.provider, p.amount, p.currency, p.order_id, p.cart_id,
        n.service_uuid, n.id, null, n.last_error, n.updated_at
      from ${NOTIFICATION} n left join ${PAYMENT} p on p.session_id = n.session_id and p.deleted_at is null
      where n.deleted_at is null and n.state = 'dead'`
    const [{ rows }, { rows: countRows }] = await Promise.all([
      db.raw(`select * from (${union}) a${only} order by since desc limit ? offset ?`, [...bindings, page.limit, page.offset]),
      db.raw(`select kind, count(*)::int as n from (${union}) a${only} group by kind`, bindings),
    ])
    const counts: Record<AttentionKind, number> = { review: 0, duplicate_charge: 0, unknown_outcome: 0, dead_notification: 0 }
    for (const r of countRows as Array<{ kind: AttentionKind; n: number }>) counts[r.kind] = r.n
    return { rows, counts }
  }
}

export type { AttentionKind }

export interface AttentionRow {
  id: string
  kind: AttentionKind
  code: string
  session_id: string | null
  provider: string | null
  amount: string | null
  currency: string | null
  order_id: string | null
  cart_id: string | null
  service_uuid: string | null
  notification_id: string | null
  charge_id: string | null
  detail: string | null
  since: Date
}

function knexOf(ctx: Context): Knex {
  return (ctx.manager as unknown as { getKnex(): Knex }).getKnex()
}

function serialize(patch: object): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(patch)) {
    if (v === undefined) continue
    out[k] = JSON_COLUMNS.has(k) && v !== null ? JSON.stringify(v) : v
  }
  return out
}

export default OdemeModuleService
