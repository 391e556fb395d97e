import type { Context } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, InjectManager, InjectTransactionManager, MedusaContext, MedusaService } from "@medusajs/framework/utils"
import type { Knex } from "@medusajs/framework/mikro-orm/knex"
import type { OdemeClient } from "../../client"
import type { BankDirectory } from "../../lib/bank-directory"
import { type OdemeOptions } from "../../lib/options"
import { registerPluginOptions } from "../../lib/options-registration"
import { createServiceClient } from "../../lib/service-client"
import { laneFor, type Lane } from "../../lib/notification-lane"
import { pollerPeriodMs } from "../../lib/poller-period"
import OdemeCharge from "./models/odeme-charge"
import OdemeHealth from "./models/odeme-health"
import type { PaymentState } from "./models/states"
import OdemeNotification from "./models/odeme-notification"
import OdemePayment from "./models/odeme-payment"
import OdemeRefund from "./models/odeme-refund"
import { NotificationBatcher } from "./notification-batcher"
import { insertInitiated, SESSION_OF_ORDER_ID, sessionOfOrderId, type InitiatedRow } from "./references"
import { CHARGE, HEALTH, knexOf, newEntityId, NOTIFICATION, PAYMENT, PLAIN_KEY, REFUND, sameRow, serialize, storeRecord } from "./rows"
import type {
  AttentionKind,
  AttentionRow,
  ChargeInput,
  CheckedTransfer,
  MedusaRefusal,
  NotificationInput,
  NotificationSettlement,
  OdemeChargeRow,
  OdemeNotificationRow,
  OdemePaymentRow,
  OdemeRefundRow,
  PaymentDetails,
  RefundInput,
  StateChange,
  StoredNotification,
  StoreResult,
} from "./types"

export type * from "./types"

type Logger = { debug(m: string): void; warn(m: string): void; error(m: string): void }

/**
 * The plugin's module: its tables (payments, charges, notification inbox,
 * refunds), the SQL that keeps them consistent under concurrency (each
 * method holds its own statements; the longer ones are constants at the end
 * of this file), and the configured service client. The rest of the plugin
 * calls these methods and never touches the tables.
 */
class OdemeModuleService extends MedusaService({
  OdemePayment,
  OdemeNotification,
  OdemeCharge,
  OdemeRefund,
  OdemeHealth,
}) {
  readonly odemeOptions: OdemeOptions
  readonly client: OdemeClient
  readonly banks: BankDirectory
  private readonly pg_: Knex
  private readonly intake_: NotificationBatcher<NotificationInput, StoreResult>
  private readonly lateIntake_: NotificationBatcher<NotificationInput, StoreResult>

  constructor(container: Record<string, unknown>, options: Record<string, unknown>) {
    // eslint-disable-next-line prefer-rest-params
    super(...(arguments as unknown as [Record<string, unknown>]))
    // Also compares with the options the payment provider was given (a boot error if they differ).
    this.odemeOptions = registerPluginOptions(options)
    this.pg_ = container[ContainerRegistrationKeys.PG_CONNECTION] as Knex
    this.intake_ = new NotificationBatcher((inputs) => this.storeNotifications_(this.pg_, inputs))
    this.lateIntake_ = new NotificationBatcher((inputs) => this.storeNotifications_(this.pg_, inputs), { bounded: false })
    const { client, banks } = createServiceClient(this.odemeOptions, container.logger as Logger | undefined)
    this.client = client
    this.banks = banks
  }

  // ---- payments -----------------------------------------------------------

  /** The plugin's one read of a payment (the routes too, not the generated listOdemePayments); Admin's list is listAwaitingTransfers. */
  @InjectManager()
  async getPayment(sessionId: string, @MedusaContext() ctx: Context = {}): Promise<OdemePaymentRow | null> {
    const row = await knexOf(ctx)(PAYMENT).whereNull("deleted_at").where({ session_id: sessionId }).first()
    return (row as OdemePaymentRow | undefined) ?? null
  }

  /** `getPayment` for several sessions at once (an order's payments), in no particular order. */
  @InjectManager()
  async getPayments(sessionIds: string[], @MedusaContext() ctx: Context = {}): Promise<OdemePaymentRow[]> {
    if (!sessionIds.length) return []
    return knexOf(ctx)(PAYMENT).whereNull("deleted_at").whereIn("session_id", sessionIds)
  }

  /** Transfers still waiting for the money, newest first: one page and how many there are (Admin's list). */
  @InjectManager()
  async listAwaitingTransfers(page: { limit: number; offset: number }, @MedusaContext() ctx: Context = {}): Promise<[OdemePaymentRow[], number]> {
    const waiting = () => knexOf(ctx)(PAYMENT).whereNull("deleted_at").where({ status: "awaiting_transfer" })
    const [rows, [{ count }]] = await Promise.all([
      // The id breaks ties between rows created in the same instant, so pages never repeat or skip one.
      waiting()
        .orderBy([
          { column: "created_at", order: "desc" },
          { column: "id", order: "desc" },
        ])
        .limit(page.limit)
        .offset(page.offset),
      waiting().count({ count: "*" }),
    ])
    return [rows as OdemePaymentRow[], Number(count)]
  }

  /**
   * Records a session when it is initiated. A second call (Medusa's updatePayment) refreshes amount and
   * currency only while nothing was asked of the service for them: a payment that moved on, or a transfer
   * whose creation started, keeps the money it was asked for (the provider refuses such a change first).
   */
  @InjectManager()
  async recordInitiated(row: InitiatedRow, @MedusaContext() ctx: Context = {}): Promise<OdemePaymentRow> {
    return insertInitiated(knexOf(ctx), row, this.odemeOptions.referencePrefix)
  }

  /** The session a notification's `order_id` names: its short reference, or the id of a session from before them. */
  @InjectManager()
  async sessionOfOrderId(orderId: string, @MedusaContext() ctx: Context = {}): Promise<string | null> {
    return sessionOfOrderId(knexOf(ctx), orderId)
  }

  /**
   * Takes the right to create the service-side transfer for a session. Only
   * one caller ever wins while nothing was created; a refusal by the service
   * ("failed") may be retried, an unknown outcome never.
   */
  @InjectManager()
  async claimTransferCreation(sessionId: string, details: PaymentDetails, @MedusaContext() ctx: Context = {}): Promise<OdemePaymentRow | null> {
    return this.updatePaymentWhere_(
      knexOf(ctx),
      { session_id: sessionId, status: "pending" },
      { ...serialize(details), creation_state: "creating", creation_started_at: new Date() },
      ["creation_state", ["none", "failed"]]
    )
  }

  @InjectManager()
  async endTransferCreation(
    sessionId: string,
    outcome: { creation_state: "created" | "failed" | "unknown" } & PaymentDetails,
    @MedusaContext() ctx: Context = {}
  ): Promise<OdemePaymentRow | null> {
    return this.updatePaymentWhere_(knexOf(ctx), { session_id: sessionId, creation_state: "creating" }, serialize(outcome))
  }

  /** Records what was learned about a payment; the state is not touched here. */
  @InjectManager()
  async updatePaymentDetails(sessionId: string, details: PaymentDetails, @MedusaContext() ctx: Context = {}): Promise<OdemePaymentRow | null> {
    return this.updatePaymentWhere_(knexOf(ctx), { session_id: sessionId }, serialize(details))
  }

  /**
   * The only write of a payment's state: succeeds only if nobody moved the
   * payment since `version` was read. Called by the transition function
   * (src/lib/payment-state/apply-service-answer.ts) and nothing else.
   */
  @InjectManager()
  async compareAndSetState(
    sessionId: string,
    version: number,
    change: StateChange,
    @MedusaContext() ctx: Context = {}
  ): Promise<OdemePaymentRow | null> {
    const db = knexOf(ctx)
    // What a person resolved was this state: a new state (or review reason) is a new item for them.
    const resolvedAt = db.raw("case when status::text is distinct from ? or review_code::text is distinct from ? then null else resolved_at end", [
      change.status,
      change.review_code,
    ])
    return this.updatePaymentWhere_(db, { session_id: sessionId, version }, { ...serialize(change), version: version + 1, resolved_at: resolvedAt })
  }

  /**
   * Claims one page of up to `limit` transfers whose check is due (newest
   * first) under a lease, so two pollers never take the same transfer; `unknown`
   * transfers are asked about too once a notification told their uuid, and a
   * paid one whose settling in Medusa failed stays due until it is settled.
   */
  @InjectManager()
  async claimDueTransfers(limit: number, leaseSeconds: number, @MedusaContext() ctx: Context = {}): Promise<OdemePaymentRow[]> {
    const { rows } = await knexOf(ctx).raw(CLAIM_SQL, [leaseSeconds, limit])
    return rows
  }

  /** What a page of checks learned about transfers whose state did not change, in one statement. */
  @InjectManager()
  async recordChecks(checks: CheckedTransfer[], @MedusaContext() ctx: Context = {}): Promise<number> {
    if (!checks.length) return 0
    const result = await knexOf(ctx).raw(RECORD_CHECKS_SQL, [checksJson(checks)])
    return result.rowCount ?? 0
  }

  /** Takes one verify call from the session's budget for the current window; when spent, says when the next opens. */
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
    // Only to say when to come back: a window another call opened meanwhile just moves that time.
    const row = await db(PAYMENT).whereNull("deleted_at").where({ session_id: sessionId }).first("verify_window_started_at")
    const start = row?.verify_window_started_at ? new Date(row.verify_window_started_at).getTime() : Date.now()
    return { ok: false, retryAt: new Date(start + windowSeconds * 1000 + 50) }
  }

  /**
   * Ends creation claims a stopped process left open (they become `unknown`):
   * the transfer may exist at the service, so it is never created again. The
   * sessions whose claim was ended.
   */
  @InjectManager()
  async endStaleCreations(olderThanSeconds: number, limit: number, @MedusaContext() ctx: Context = {}): Promise<string[]> {
    const { rows } = await knexOf(ctx).raw(
      `update ${PAYMENT} set creation_state = 'unknown', last_result = 'creating process stopped before an answer', updated_at = now()
       where id in (select id from ${PAYMENT} where deleted_at is null and creation_state = 'creating'
         and creation_started_at < now() - make_interval(secs => ?) limit ? for update skip locked)
       returning session_id`,
      [olderThanSeconds, limit]
    )
    return (rows as Array<{ session_id: string }>).map((r) => r.session_id)
  }

  /**
   * Paid payments of a cart that no order names yet, settled at least a
   * moment ago: the reconciler asks Medusa about them (a page, oldest first).
   */
  @InjectManager()
  async unsettledPaid(olderThanSeconds: number, limit: number, @MedusaContext() ctx: Context = {}): Promise<OdemePaymentRow[]> {
    const db = knexOf(ctx)
    return db(PAYMENT)
      .whereNull("deleted_at")
      .where({ status: "paid" })
      .whereNotNull("cart_id")
      .whereNull("order_id")
      .where("updated_at", "<", db.raw("now() - make_interval(secs => ?)", [olderThanSeconds]))
      .orderBy("updated_at")
      .limit(limit)
  }

  /**
   * Names the cart on the payment, and the cart's order on every payment of
   * that cart that does not name one; a balance's payment (no cart) names its
   * order. Up to two updates, in one transaction: a payment never names the
   * cart while the cart's order is missing from its siblings.
   */
  @InjectTransactionManager()
  async linkCart(sessionId: string, cartId: string | null, orderId: string | null, @MedusaContext() ctx: Context = {}): Promise<void> {
    const db = knexOf(ctx)
    if (cartId) await db(PAYMENT).whereNull("deleted_at").where({ session_id: sessionId }).update({ cart_id: cartId, updated_at: new Date() })
    if (!cartId && orderId) {
      await db(PAYMENT)
        .whereNull("deleted_at")
        .where({ session_id: sessionId })
        .whereNull("order_id")
        .update({ order_id: orderId, updated_at: new Date() })
    }
    if (cartId && orderId) {
      await db(PAYMENT).whereNull("deleted_at").where({ cart_id: cartId }).whereNull("order_id").update({ order_id: orderId, updated_at: new Date() })
    }
  }

  /**
   * Names a placed order (and its cart) on its payments that are not paid: a paid one is named by settle once
   * its capture is on the order, and until then the reconciler looks for it (`unsettledPaid`).
   */
  @InjectManager()
  async nameOrder(sessionIds: string[], cartId: string | null, orderId: string, @MedusaContext() ctx: Context = {}): Promise<void> {
    if (!sessionIds.length) return
    const db = knexOf(ctx)
    await db(PAYMENT)
      .whereNull("deleted_at")
      .whereIn("session_id", sessionIds)
      .whereNot("status", "paid")
      .whereNull("order_id")
      .update({ order_id: orderId, ...(cartId ? { cart_id: cartId } : {}), updated_at: new Date() })
  }

  /**
   * What Medusa would not do for a payment, kept until it is done (null clears it): an order its unpaid transfer
   * could not cancel, the rest of an edited order that could not be asked for. Each is an item in "needs
   * attention" (ATTENTION_SQL's `order_not_canceled`, `rest_not_asked`), never only a log line.
   */
  @InjectManager()
  async noteMedusaRefusal(
    sessionId: string,
    what: MedusaRefusal,
    detail: { order_id: string | null; reason: string } | null,
    @MedusaContext() ctx: Context = {}
  ): Promise<void> {
    const db = knexOf(ctx)
    const row = db(PAYMENT).whereNull("deleted_at").where({ session_id: sessionId })
    if (!detail) {
      await row.whereRaw("jsonb_exists(metadata, ?)", [what]).update({ metadata: db.raw("metadata - ?::text", [what]), updated_at: new Date() })
      return
    }
    const reason = detail.reason.slice(0, 500)
    // `at` (the database's clock, as resolved_at) is when it was first seen: the same refusal again keeps it, so a
    // person's "resolved" still holds; another reason is new and listed again.
    await row.update({
      metadata: db.raw(
        `coalesce(metadata, '{}'::jsonb) || jsonb_build_object(?::text, ?::jsonb || jsonb_build_object('at',
           case when metadata->(?::text)->>'reason' = ?::text then metadata->(?::text)->'at' else to_jsonb(now()) end))`,
        [what, JSON.stringify({ order_id: detail.order_id, reason }), what, reason, what]
      ),
      updated_at: new Date(),
    })
  }

  /** An order was canceled after all (by hand, say): none of its payments is listed as its order not canceled any more. */
  @InjectManager()
  async forgetOrderNotCanceled(orderId: string, @MedusaContext() ctx: Context = {}): Promise<void> {
    const db = knexOf(ctx)
    await db(PAYMENT)
      .whereNull("deleted_at")
      .whereRaw("metadata->'order_not_canceled'->>'order_id' = ?", [orderId])
      .update({ metadata: db.raw("metadata - 'order_not_canceled'"), updated_at: new Date() })
  }

  /** Counts a failed settle in Medusa or check at the service in a row (false: the run of failures ended). */
  @InjectManager()
  async countFailure(sessionId: string, what: "settle" | "check", failed: boolean, @MedusaContext() ctx: Context = {}): Promise<void> {
    const db = knexOf(ctx)
    const column = what === "settle" ? "settle_failures" : "check_failures"
    await db(PAYMENT)
      .whereNull("deleted_at")
      .where({ session_id: sessionId })
      .update({ [column]: failed ? db.raw("?? + 1", [column]) : 0, updated_at: new Date() })
  }

  /** One conditional update of a live payment row, returning it when the condition held. */
  private async updatePaymentWhere_(
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

  // ---- charges --------------------------------------------------------------

  /** Records a service payment of a session (one row per uuid); a later answer updates it. */
  @InjectManager()
  async recordCharge(charge: ChargeInput, @MedusaContext() ctx: Context = {}): Promise<OdemeChargeRow> {
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
        newEntityId("odchg"),
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
    const db = knexOf(ctx)
    const rows = await db(CHARGE)
      .whereNull("deleted_at")
      .where({ id })
      .whereIn("role", ["duplicate", "late", "rejected"])
      .update({ acknowledged_at: db.raw("coalesce(acknowledged_at, now())"), acknowledged_by: actor, updated_at: new Date() })
      .returning("*")
    return (rows[0] as OdemeChargeRow | undefined) ?? null
  }

  // ---- notification inbox -----------------------------------------------------

  /**
   * Stores a notification for a known session in one statement: the insert
   * happens only if the session is one of this store's payments; a repeat of
   * the same content only counts as a duplicate. Null: unknown session.
   */
  async storeNotification(input: NotificationInput, @MedusaContext() ctx: Context = {}): Promise<StoreResult> {
    // In the caller's transaction when it has one. Otherwise on Medusa's shared connection directly, without
    // forking an entity manager per request (the one write needs no unit of work), shared with the webhooks
    // that arrive at the same moment.
    if (ctx.manager) return (await this.storeNotifications_(knexOf(ctx), [input]))[0]
    return this.intake_.add(input)
  }

  /**
   * storeNotification for what arrives on Medusa's generic hook route, which
   * has answered the service 200 before the plugin sees it. The route's batch
   * bounds how many wait and for how long so that the route can answer 503 and
   * be delivered again; here that answer has gone, so a flood waits for the
   * database instead of being turned away. Batched all the same (one statement
   * at a time), so a flood does not take Medusa's whole pool.
   */
  async storeNotificationUnbounded(input: NotificationInput): Promise<StoreResult> {
    return this.lateIntake_.add(input)
  }

  /**
   * Stores notifications in one statement (STORE_SQL); the answer for each
   * input, in order (null: the session is none of this store's payments).
   * Copies with the same dedupe key in one call are one row: the first is
   * new or a duplicate as the table says, the others are duplicates of it. A
   * copy that would be another row (another session, source or state) goes
   * in a statement of its own after. Each statement stands alone: an answer
   * is final once its own statement committed.
   */
  private async storeNotifications_(db: Knex, inputs: NotificationInput[]): Promise<StoreResult[]> {
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
      const rest = await this.storeNotifications_(
        db,
        later.map((i) => inputs[i])
      )
      later.forEach((i, k) => (answers[i] = rest[k]))
    }
    return answers
  }

  @InjectManager()
  async getNotification(id: string, @MedusaContext() ctx: Context = {}): Promise<OdemeNotificationRow | null> {
    return ((await knexOf(ctx)(NOTIFICATION).whereNull("deleted_at").where({ id }).first()) as OdemeNotificationRow | undefined) ?? null
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
  @InjectManager()
  async claimNotification(
    id: string,
    leaseSeconds: number,
    lane: Lane = "exact",
    @MedusaContext() ctx: Context = {}
  ): Promise<OdemeNotificationRow | null> {
    const { rows } = await knexOf(ctx).raw(CLAIM_NOTIFICATION_SQL, { id, lane, lease: Math.round(leaseSeconds) })
    return (rows[0] as OdemeNotificationRow | undefined) ?? null
  }

  /** Which end of its session's lane a turn of this row takes (lib/notification-lane.ts). */
  @InjectManager()
  async laneOf(id: string, windowSeconds: number, @MedusaContext() ctx: Context = {}): Promise<Lane> {
    const { rows } = await knexOf(ctx).raw(
      `select n.trusted, p.verify_calls, p.verify_window_started_at > now() - make_interval(secs => ?) as window_open
       from ${NOTIFICATION} n left join ${PAYMENT} p on p.session_id = n.session_id and p.deleted_at is null
       where n.id = ? and n.deleted_at is null`,
      [windowSeconds, id]
    )
    return laneFor(rows[0] ?? null)
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

  /** Puts a claimed row back until `at` without counting an attempt (verify budget spent); counts the deferral. */
  @InjectManager()
  async deferNotification(id: string, at: Date, @MedusaContext() ctx: Context = {}): Promise<void> {
    const db = knexOf(ctx)
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
  @InjectManager()
  async dueNotificationIds(limit: number, @MedusaContext() ctx: Context = {}): Promise<string[]> {
    const db = knexOf(ctx)
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

  /**
   * How many redirects of a session are stored (up to `atMost`), of those with the session's proof or of those
   * without: each bounded on its own, so returns anyone can send never crowd out the customer's own.
   */
  @InjectManager()
  async countReturns(sessionId: string, proven: boolean, atMost: number, @MedusaContext() ctx: Context = {}): Promise<number> {
    return countStored(knexOf(ctx), sessionId, "return", atMost, { trusted: proven })
  }

  /** Whether the customer came back from the payment page saying "paid" (a redirect: navigation, never proof). */
  @InjectManager()
  async hasPaidReturn(sessionId: string, @MedusaContext() ctx: Context = {}): Promise<boolean> {
    const row = await knexOf(ctx)(NOTIFICATION)
      .whereNull("deleted_at")
      .where({ session_id: sessionId, source: "return", status: "successful" })
      .where({ trusted: true })
      .first("id")
    return !!row
  }

  /**
   * Whether a session's customer may be paying it now: its row changed (initiated, an answer recorded) since
   * `since.changed`; a form was signed, or a return or a webhook stored (not refused by verify) since
   * `since.noted`; or a webhook of it still waits to be processed (its verify retrying may well be the money).
   */
  @InjectManager()
  async maybePaying(sessionId: string, since: { changed: Date; noted: Date }, @MedusaContext() ctx: Context = {}): Promise<boolean> {
    const { rows } = await knexOf(ctx).raw(
      `select exists (select 1 from ${PAYMENT} where session_id = ? and deleted_at is null and (updated_at > ? or form_signed_at > ?))
         or exists (select 1 from ${NOTIFICATION} where session_id = ? and deleted_at is null
           and ((created_at > ? and outcome is distinct from 'rejected') or (source = 'webhook' and ${OPEN_NOTIFICATION}))) as busy`,
      [sessionId, since.changed, since.noted, sessionId, since.noted]
    )
    return rows[0].busy === true
  }

  /**
   * A Quick Checkout form was signed for the session: its customer may pay within the form's window from now.
   * A column of its own, not `updated_at`: the payment itself did not change.
   */
  @InjectManager()
  async noteFormSigned(sessionId: string, @MedusaContext() ctx: Context = {}): Promise<void> {
    await knexOf(ctx)(PAYMENT)
      .whereNull("deleted_at")
      .where({ session_id: sessionId })
      .update({ form_signed_at: knexOf(ctx).fn.now() })
  }

  /** How many webhooks of a session wait to be processed (up to `atMost`). */
  @InjectManager()
  async countOpenWebhooks(sessionId: string, atMost: number, @MedusaContext() ctx: Context = {}): Promise<number> {
    return countStored(knexOf(ctx), sessionId, "webhook", atMost, { open: true })
  }

  /** The session's notifications that the verify endpoint can judge, newest first (refused ones last). */
  @InjectManager()
  async verifiableNotificationIds(sessionId: string, limit: number, @MedusaContext() ctx: Context = {}): Promise<string[]> {
    const rows = await knexOf(ctx)(NOTIFICATION)
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
  @InjectManager()
  async webhookHealth(@MedusaContext() ctx: Context = {}): Promise<{ last_webhook_at: Date | null; webhooks_24h: number; medusa_hook_24h: number }> {
    const { rows } = await knexOf(ctx).raw(
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

  /**
   * Transfers due for a check an hour ago and more: no process of the store runs the checks (the poller is off
   * everywhere, its worker is down). Unpaid transfers then never expire, and money is found only by webhooks.
   */
  @InjectManager()
  async overdueTransferChecks(@MedusaContext() ctx: Context = {}): Promise<number> {
    const { rows } = await knexOf(ctx).raw(
      `select count(*)::int as overdue from ${PAYMENT} where ${POLL_WHERE} and next_check_at < now() - interval '1 hour'`
    )
    return rows[0]?.overdue ?? 0
  }

  // ---- what needs a person ------------------------------------------------------

  /**
   * What a person must look at (ATTENTION_SQL), newest first, with counts.
   * Thresholds: a return that said success with no verified notification
   * after `unconfirmedAfterMinutes` (the webhook is not arriving), and
   * `failuresBeforeAttention` consecutive failures of settling in Medusa or
   * of asking the service about a transfer.
   */
  @InjectManager()
  async listAttention(
    page: { limit: number; offset: number; sessionIds?: string[]; kinds?: AttentionKind[] },
    @MedusaContext() ctx: Context = {}
  ): Promise<{ rows: AttentionRow[]; counts: Record<AttentionKind, number>; codes: Record<string, number> }> {
    const db = knexOf(ctx)
    const n = this.odemeOptions.notifications
    const filters = [page.sessionIds ? "session_id = any(:sessions)" : null, page.kinds ? "kind = any(:kinds)" : null].filter(Boolean)
    const only = filters.length ? ` where ${filters.join(" and ")}` : ""
    const bindings = {
      unconfirmed_seconds: Math.round(n.unconfirmedAfterMinutes * 60),
      unprocessed_seconds: Math.round(n.unprocessedAfterMinutes * 60),
      // "Three of its periods" without a pass (lib/poller-period.ts).
      poller_seconds: Math.round((3 * pollerPeriodMs(this.odemeOptions.transfer.pollSchedule)) / 1000),
      failures: n.failuresBeforeAttention,
      sessions: page.sessionIds ?? null,
      kinds: page.kinds ?? null,
      limit: page.limit,
      offset: page.offset,
    }
    const [{ rows }, { rows: countRows }] = await Promise.all([
      db.raw(`select * from (${ATTENTION_SQL}) a${only} order by since desc limit :limit offset :offset`, bindings),
      db.raw(`select kind, code, count(*)::int as n from (${ATTENTION_SQL}) a${only} group by kind, code`, bindings),
    ])
    const counts = Object.fromEntries(ATTENTION_KINDS.map((k) => [k, 0])) as Record<AttentionKind, number>
    const codes: Record<string, number> = {}
    for (const r of countRows as Array<{ kind: AttentionKind; code: string; n: number }>) {
      counts[r.kind] += r.n
      codes[r.code] = (codes[r.code] ?? 0) + r.n
    }
    return { rows, counts, codes }
  }

  /** The poller ran a pass: its worker is alive (the "poller not running" item reads it). */
  @InjectManager()
  async notePollerPass(@MedusaContext() ctx: Context = {}): Promise<void> {
    await knexOf(ctx).raw(
      `insert into ${HEALTH} as h (id, "count", last_at) values ('poller_pass', 1, now())
       on conflict (id) do update set "count" = h."count" + 1, last_at = now(), updated_at = now()`
    )
  }

  /** Notifications for references this store never made: how many, when the last came, and the last few. */
  @InjectManager()
  async strayNotifications(
    @MedusaContext() ctx: Context = {}
  ): Promise<{ count: number; last_at: Date | null; recent: Array<{ order_id: string; status: string | null; at: string }> }> {
    const row = await knexOf(ctx)(HEALTH).where({ id: "stray_notifications" }).first("count", "last_at", "recent")
    return { count: row?.count ?? 0, last_at: row?.last_at ?? null, recent: (row?.recent as never) ?? [] }
  }

  /**
   * A person closed a review or stuck item with what they did (kept in the
   * timeline); the state is not changed. Until its state changes (then it is
   * a new item).
   */
  @InjectManager()
  async resolvePayment(sessionId: string, actor: string | null, note: string, @MedusaContext() ctx: Context = {}): Promise<OdemePaymentRow | null> {
    const rows = await knexOf(ctx)(PAYMENT)
      .whereNull("deleted_at")
      .where({ session_id: sessionId })
      .where((q) =>
        q
          .whereIn("status", ["review", "unknown"])
          .orWhere("settle_failures", ">", 0)
          .orWhere("check_failures", ">", 0)
          .orWhereRaw(`${MEDUSA_REFUSALS.map(() => "jsonb_exists(metadata, ?)").join(" or ")}`, MEDUSA_REFUSALS)
          // A "paid" return no notification confirmed: the person may have checked the merchant panel and found nothing.
          .orWhere((r) =>
            r
              .whereIn("status", ["pending", "canceled"])
              .whereExists((e) =>
                e
                  .select(1)
                  .from(NOTIFICATION)
                  .whereRaw(`${NOTIFICATION}.session_id = ${PAYMENT}.session_id`)
                  .where({ source: "return", status: "successful" })
                  .whereNull("deleted_at")
              )
          )
      )
      // The database's clock, which also stamps the returns a resolution is compared with.
      .update({
        resolved_at: knexOf(ctx).fn.now(),
        resolved_by: actor,
        resolution_note: note,
        updated_at: new Date(),
      })
      .returning("*")
    return (rows[0] as OdemePaymentRow | undefined) ?? null
  }

  // ---- refunds to make by hand ------------------------------------------------

  /**
   * Money to pay back in the merchant panel (the service has no refund call): a to-do until a person says it
   * was paid back. A refund Medusa recorded is recorded once per Medusa refund (Medusa's retries add nothing);
   * one Medusa could not make (`medusa_refund_id` null: refunds refused, or a refund that failed) once per
   * session, however often the cancel it follows is followed.
   */
  @InjectManager()
  async recordRefund(refund: RefundInput, @MedusaContext() ctx: Context = {}): Promise<void> {
    await knexOf(ctx).raw(
      `insert into ${REFUND} (id, session_id, medusa_refund_id, amount, currency)
       select ?, ?, ?::text, ?, ?
       where ?::text is not null
          or not exists (select 1 from ${REFUND} where session_id = ? and medusa_refund_id is null and deleted_at is null)
       on conflict (medusa_refund_id) where medusa_refund_id is not null and deleted_at is null do nothing`,
      [newEntityId("odref"), refund.session_id, refund.medusa_refund_id, refund.amount, refund.currency, refund.medusa_refund_id, refund.session_id]
    )
  }

  @InjectManager()
  async acknowledgeRefund(id: string, actor: string | null, @MedusaContext() ctx: Context = {}): Promise<OdemeRefundRow | null> {
    const db = knexOf(ctx)
    const rows = await db(REFUND)
      .whereNull("deleted_at")
      .where({ id })
      .update({ acknowledged_at: db.raw("coalesce(acknowledged_at, now())"), acknowledged_by: actor, updated_at: new Date() })
      .returning("*")
    return (rows[0] as OdemeRefundRow | undefined) ?? null
  }
}

// ---- statements too long to read inside their method, and what they share ----------

// payments

/**
 * The rows the poller asks about. The partial index IDX_odeme_payment_poll
 * (models/odeme-payment.ts) holds exactly these, so finished payments, however
 * many, cost the claim nothing.
 */
const POLL_WHERE = `deleted_at is null and service_uuid is not null and next_check_at is not null and status in ('awaiting_transfer', 'unknown', 'paid', 'canceled')`

/**
 * Claims one page of due transfers, newest first, by setting their lease
 * (`claimed_until`). SKIP LOCKED plus the lease means two pollers (two
 * workers) never take the same transfer; a row whose poller died becomes due
 * again when the lease ends. The lease is a column of its own, written
 * without `updated_at`: moving `next_check_at` (indexed) would put a new entry
 * in every index of the table for each claimed row, a cost that grows with
 * the table. Whatever sets the next check ends the lease (`updatePaymentWhere_`,
 * `recordChecks`). Exported for the bench's EXPLAIN.
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
 * The checks as the statement's one JSON parameter, each column with a flag saying whether it is set.
 * Built apart from the awaiting method, so the page's intermediate objects are garbage before the round trip.
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

// notification inbox

/**
 * The inbox's one write, for one notification or many at once (the intake
 * batches concurrent webhooks, see ./notification-batcher.ts): the lookup of
 * the payment, the insert and the duplicate check are one statement, and it
 * returns only what the route needs (not the stored payload back). Rows are
 * inserted in dedupe-key order, so two batches that share keys take their
 * locks in the same order and never deadlock: the Sort is the plan's top node
 * under the Insert, which takes rows in the order it gives them (PostgreSQL
 * does not document this for INSERT ... SELECT ... ORDER BY; the module test
 * "never deadlocks ..." runs batches in opposite orders to hold it).
 */
/** A notification still to be processed (IDX_odeme_notification_open's predicate). */
const OPEN_NOTIFICATION = "state in ('received', 'retry', 'processing')"

const REOPENS = `(${NOTIFICATION}.state = 'dead' or (${NOTIFICATION}.state = 'done' and ${NOTIFICATION}.outcome = 'rejected'))`

/** How many notifications for unknown references the health row keeps to show. */
const RECENT_STRAYS = 5

/**
 * Notifications for references this store never made are counted in the same statement (`odeme_health`,
 * the last RECENT_STRAYS kept): the service's test delivery, a second store on the same URL. The count runs
 * before the first insert (an InitPlan the insert's filter reads), so every statement that takes the
 * counter's row takes it before the inbox's keys, and two never wait on each other in opposite orders.
 * Exported for the bench's EXPLAIN (with rows.ts storeRecord for its parameter).
 */
export const STORE_SQL = `
  with i as materialized (
    select i.*, r.payment_session, r.payment_session is not null as known
    from jsonb_to_recordset(?::jsonb)
      as i(id text, source text, dedupe_key text, session_id text, service_uuid text, status text, type text, payload text, raw_body text,
        state text, outcome text, copies int, trusted boolean)
      cross join lateral (select ${SESSION_OF_ORDER_ID("i.session_id")} as payment_session) r
  ), stray as (
    insert into ${HEALTH} as h (id, "count", last_at, recent)
    select 'stray_notifications', sum(i.copies), now(),
      (select jsonb_agg(jsonb_build_object('order_id', left(s.session_id, 200), 'status', left(s.status, 50), 'at', now()))
       from (select session_id, status from i where not known limit ${RECENT_STRAYS}) s)
    from i where not i.known having count(*) > 0
    on conflict (id) do update set "count" = h."count" + excluded."count", last_at = excluded.last_at, updated_at = now(),
      recent = (select jsonb_agg(e order by n) from (select e, n from jsonb_array_elements(excluded.recent || coalesce(h.recent, '[]'::jsonb))
        with ordinality as r(e, n) order by n limit ${RECENT_STRAYS}) t)
    returning 1
  )
  insert into ${NOTIFICATION} (id, source, dedupe_key, session_id, service_uuid, status, type, payload, raw_body, state, outcome, processed_at,
    duplicate_count, trusted)
  select i.id, i.source, i.dedupe_key, i.payment_session, i.service_uuid, i.status, i.type, i.payload::jsonb, i.raw_body, i.state, i.outcome,
    case when i.state = 'done' then now() end, i.copies - 1, coalesce(i.trusted, false)
  from i
  where i.known and (select count(*) from stray) >= 0
  order by i.dedupe_key
  on conflict (dedupe_key) where deleted_at is null
  do update set duplicate_count = ${NOTIFICATION}.duplicate_count + excluded.duplicate_count + 1, updated_at = now(),
    -- A copy from the service's named address proves the row, whoever sent it first.
    trusted = ${NOTIFICATION}.trusted or excluded.trusted,
    -- The service delivering a dead notification again gives it another round; so does a copy verify
    -- once refused (one negative answer is not final: the service may not have known the payment yet).
    state = case when ${REOPENS} then 'retry' else ${NOTIFICATION}.state end,
    attempts = case when ${REOPENS} then 0 else ${NOTIFICATION}.attempts end,
    next_attempt_at = case when ${REOPENS} then now() else ${NOTIFICATION}.next_attempt_at end
  returning id, dedupe_key, state, attempts, (xmax = 0) as inserted`

/** `whereDue` as SQL, for statements written out. */
const DUE_OF = (a: string) =>
  `((${a}.state in ('received', 'retry') and (${a}.next_attempt_at is null or ${a}.next_attempt_at <= now())) or (${a}.state = 'processing' and ${a}.locked_until < now()))`

/**
 * One claim (service.ts claimNotification): the row itself, or for a delivery nothing proved, its session's
 * due unproven row at the lane's end (the newest first; for the oldest's share, the oldest).
 */
const CLAIM_NOTIFICATION_SQL = `
  with asked as (select session_id, trusted from ${NOTIFICATION} where id = :id and deleted_at is null),
  pick as (
    select n.id from ${NOTIFICATION} n join asked a on n.session_id = a.session_id
    where :lane <> 'exact' and not a.trusted and not n.trusted and n.deleted_at is null and n.service_uuid is not null and ${DUE_OF("n")}
    order by case when :lane = 'oldest' then n.created_at end asc, n.created_at desc, n.id desc
    limit 1
    for update of n skip locked
  )
  update ${NOTIFICATION} t set state = 'processing', locked_until = now() + make_interval(secs => :lease),
    -- Counted when taken, so an attempt that crashes its process still counts.
    attempts = t.attempts + 1, updated_at = now()
  where t.id = coalesce((select id from pick), :id) and t.deleted_at is null and ${DUE_OF("t")}
  returning t.*`

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

// what needs a person

/**
 * What Medusa would not do, each with the payment states in which it still
 * stands: an unpaid transfer's order stays uncanceled only while the transfer
 * is unpaid; a paid order's rest stays unasked only while it is paid.
 */
const MEDUSA_REFUSAL_STATES: Record<MedusaRefusal, PaymentState[]> = {
  order_not_canceled: ["expired", "failed", "canceled"],
  rest_not_asked: ["paid"],
}
const MEDUSA_REFUSALS = Object.keys(MEDUSA_REFUSAL_STATES) as MedusaRefusal[]
/** The map as SQL `values` rows (constants of this file, never input). */
const REFUSAL_VALUES = Object.entries(MEDUSA_REFUSAL_STATES)
  .map(([what, states]) => `('${what}', array[${states.map((x) => `'${x}'`).join(", ")}])`)
  .join(", ")

/** Open notifications with when they became due, and whether their session's verify waited for its budget. */
const OPEN_ROWS = `select n.session_id, n.created_at, n.deferrals,
    case when n.state = 'processing' then n.locked_until else coalesce(n.next_attempt_at, n.created_at) end as due_since,
    bool_or(n.deferrals > 0) over (partition by n.session_id) as held
  from ${NOTIFICATION} n where n.deleted_at is null and n.${OPEN_NOTIFICATION}`

/**
 * Whether stored notifications are being processed, computed when Admin reads it, so it shows while no worker
 * runs: notifications no process took up within `notifications.unprocessedAfterMinutes` (the worker or its Redis
 * is down), a session's notifications held back that long behind copies using its verify budget (a flood of
 * forged copies), and a poller that has not run for three of its periods while work waits for it.
 */
const PROCESSING_ATTENTION_SQL = `
  select 'processing:unprocessed', 'processing', 'notifications_unprocessed',
    null, null, null, null, null, null, null, null, null, null, null, min(o.due_since), count(*)::int
  from (${OPEN_ROWS}) o where not o.held and o.due_since < now() - make_interval(secs => :unprocessed_seconds)
  having count(*) > 0
  union all
  select 'held:' || o.session_id, 'processing', 'notifications_held_back',
    o.session_id, p.provider, p.amount, p.currency, p.order_id, p.cart_id, null, null, null, null,
    format('%s waiting; verify deferred %s times for the session''s budget', count(*), sum(o.deferrals)), min(o.created_at), count(*)::int
  from (${OPEN_ROWS}) o left join ${PAYMENT} p on p.session_id = o.session_id and p.deleted_at is null
  where o.held
  group by o.session_id, p.provider, p.amount, p.currency, p.order_id, p.cart_id
  having min(o.created_at) < now() - make_interval(secs => :unprocessed_seconds)
  union all
  select 'processing:poller', 'processing', 'poller_not_running',
    null, null, null, null, null, null, null, null, null, null, null, coalesce(h.last_at, w.since), null
  from (select least(
      (select min(o.due_since) from (${OPEN_ROWS}) o),
      (select min(next_check_at) from ${PAYMENT} where ${POLL_WHERE})) as since) w
  left join ${HEALTH} h on h.id = 'poller_pass'
  where w.since < now() - make_interval(secs => :poller_seconds)
    and (h.last_at is null or h.last_at < now() - make_interval(secs => :poller_seconds))`

/**
 * Everything a person must look at: payments in review or unknown (not
 * resolved by hand), unacknowledged duplicate/late/rejected charges, dead
 * notifications, refunds to make in the merchant panel, returns that said
 * "paid" while no notification confirmed it, and payments whose settling or
 * checks keep failing.
 */
const ATTENTION_SQL = `
  select 'payment:' || p.id as id, case when p.status = 'unknown' then 'unknown_outcome' else 'review' end as kind,
    coalesce(p.review_code::text, case when p.status = 'unknown' then 'creation_unknown' else 'review' end) as code,
    p.session_id, p.provider, p.amount, p.currency, p.order_id, p.cart_id,
    p.service_uuid, null::text as notification_id, null::text as charge_id, null::text as refund_id, p.review_reason as detail, p.updated_at as since,
    null::int as count
  from ${PAYMENT} p where p.deleted_at is null and p.status in ('review', 'unknown') and p.resolved_at is null
    -- the late charge of these is the item (money to give back)
    and coalesce(p.review_code::text, '') not in ('late_success', 'session_gone', 'already_paid')
  union all
  select 'charge:' || c.id, case when c.role = 'duplicate' then 'duplicate_charge' else 'review' end,
    case when c.role = 'duplicate' then 'duplicate_charge' when c.role = 'rejected' then 'amount_mismatch'
      else coalesce(p.review_code::text, 'late_success') end,
    c.session_id, p.provider, c.amount, c.currency, p.order_id, p.cart_id,
    c.service_uuid, null, c.id, null, coalesce(p.review_reason, c.detail), c.updated_at, null
  from ${CHARGE} c left join ${PAYMENT} p on p.session_id = c.session_id and p.deleted_at is null
  where c.deleted_at is null and c.status = 'successful' and c.acknowledged_at is null
    and (c.role in ('duplicate', 'late')
      -- a verified success for another amount, while the session was paid by another payment: money to give back
      or (c.role = 'rejected' and p.status = 'paid' and p.service_uuid is distinct from c.service_uuid))
  union all
  select 'notification:' || n.id, 'dead_notification',
    -- verify proved a success the transfer's own record never showed: money may well be there, not an outage
    case when n.outcome = 'pending' and lower(n.verify_result->>'official_status') = 'successful' and n.verify_result->>'is_valid' = 'true'
      then 'success_unrecorded' else 'notification_dead' end,
    n.session_id, p.provider, p.amount, p.currency, p.order_id, p.cart_id,
    n.service_uuid, n.id, null, null, n.last_error, n.updated_at, null
  from ${NOTIFICATION} n left join ${PAYMENT} p on p.session_id = n.session_id and p.deleted_at is null
  where n.deleted_at is null and n.state = 'dead'
  union all
  select 'refund:' || r.id, 'refund_due', 'refund_due',
    r.session_id, p.provider, r.amount, coalesce(r.currency, p.currency), p.order_id, p.cart_id,
    p.service_uuid, null, null, r.id, null, r.created_at, null
  from ${REFUND} r left join ${PAYMENT} p on p.session_id = r.session_id and p.deleted_at is null
  where r.deleted_at is null and r.acknowledged_at is null
  union all
  select * from (select distinct on (p.id) 'return:' || p.id, 'unconfirmed_return',
    -- what the customer's word is measured against: a notification of theirs that waits to be processed, others
    -- arriving but none for this payment, or none arriving at all (the webhook URL in the merchant panel)
    case when exists (select 1 from ${NOTIFICATION} w where w.session_id = p.session_id and w.source = 'webhook' and w.deleted_at is null
           and w.${OPEN_NOTIFICATION})
         then 'unconfirmed_return_unprocessed'
         when exists (select 1 from ${NOTIFICATION} w where w.source = 'webhook' and w.deleted_at is null
           and w.created_at > r.created_at - make_interval(secs => :unconfirmed_seconds))
         then 'unconfirmed_return_no_webhook'
         else 'unconfirmed_return' end,
    p.session_id, p.provider, p.amount, p.currency, p.order_id, p.cart_id,
    null, r.id, null, null, null, r.created_at, null::int
  from ${NOTIFICATION} r join ${PAYMENT} p on p.session_id = r.session_id and p.deleted_at is null
  where r.deleted_at is null and r.source = 'return' and r.status = 'successful' and r.trusted
    and r.created_at < now() - make_interval(secs => :unconfirmed_seconds)
    -- canceled too: a customer who paid and then changed the cart (Medusa deleted the session) is still charged
    -- a person's "resolved" holds for the returns they saw, not for a later one
    and p.status in ('pending', 'canceled') and (p.resolved_at is null or r.created_at > p.resolved_at)
  order by p.id, r.created_at) first_return
  union all
  select 'medusa:' || p.id || ':' || r.what, 'review', r.what,
    p.session_id, p.provider, p.amount, p.currency, coalesce(p.metadata->r.what->>'order_id', p.order_id), p.cart_id,
    p.service_uuid, null, null, null, p.metadata->r.what->>'reason', p.updated_at, null
  from ${PAYMENT} p cross join (values ${REFUSAL_VALUES}) as r(what, while_status)
  where p.deleted_at is null and jsonb_exists(p.metadata, r.what)
    -- a person's "resolved" holds for the refusals they saw, not for a later one
    and (p.resolved_at is null or (p.metadata->r.what->>'at')::timestamptz > p.resolved_at)
    -- only while the payment is still what the refusal was about (a transfer's money arriving after all pays the order)
    and p.status::text = any(r.while_status)
  union all
  select 'stuck:' || p.id, 'stuck', case when p.status = 'paid' then 'settle_failing' else 'checks_failing' end,
    p.session_id, p.provider, p.amount, p.currency, p.order_id, p.cart_id,
    p.service_uuid, null, null, null, p.last_result, p.updated_at, null
  from ${PAYMENT} p
  where p.deleted_at is null and p.resolved_at is null and (
    (p.status = 'paid' and p.settle_failures >= :failures)
    -- canceled too: the customer may still send a transfer that was canceled here, and the poller keeps asking about it
    or (p.status in ('awaiting_transfer', 'unknown', 'canceled') and p.check_failures >= :failures))
  union all
  ${PROCESSING_ATTENTION_SQL}`

const ATTENTION_KINDS: AttentionKind[] = [
  "review",
  "duplicate_charge",
  "unknown_outcome",
  "dead_notification",
  "refund_due",
  "unconfirmed_return",
  "stuck",
  "processing",
]

export default OdemeModuleService
