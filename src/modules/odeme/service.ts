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
import * as claims from "./claims"
import * as inbox from "./inbox"
import * as ledger from "./ledger"
import {
  CHARGE,
  HEALTH,
  knexOf,
  NOTIFICATION,
  OPEN_NOTIFICATION,
  PAYMENT,
  PLAIN_KEY,
  POLL_WHERE,
  REFUND,
  sameRow,
  serialize,
  storeRecord,
} from "./rows"
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
/** The bench's EXPLAIN reads the statements from here. */
export { CLAIM_SQL } from "./claims"
export { STORE_SQL } from "./inbox-sql"

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
    this.intake_ = new NotificationBatcher((inputs) => inbox.storeNotifications(this.pg_, inputs))
    this.lateIntake_ = new NotificationBatcher((inputs) => inbox.storeNotifications(this.pg_, inputs), { bounded: false })
    const { client, banks } = createServiceClient(this.odemeOptions, container.logger as Logger | undefined)
    this.client = client
    this.banks = banks
  }

  // ---- the payment ledger (ledger.ts) ---------------------------------------------

  /** The plugin's one read of a payment (the routes too, not the generated listOdemePayments); Admin's list is listAwaitingTransfers. */
  @InjectManager()
  async getPayment(sessionId: string, @MedusaContext() ctx: Context = {}): Promise<OdemePaymentRow | null> {
    return ledger.getPayment(knexOf(ctx), sessionId)
  }

  /** `getPayment` for several sessions at once (an order's payments), in no particular order. */
  @InjectManager()
  async getPayments(sessionIds: string[], @MedusaContext() ctx: Context = {}): Promise<OdemePaymentRow[]> {
    return ledger.getPayments(knexOf(ctx), sessionIds)
  }

  /** Transfers still waiting for the money, newest first: one page and how many there are (Admin's list). */
  @InjectManager()
  async listAwaitingTransfers(page: { limit: number; offset: number }, @MedusaContext() ctx: Context = {}): Promise<[OdemePaymentRow[], number]> {
    return ledger.listAwaitingTransfers(knexOf(ctx), page)
  }

  /** Records a session when it is initiated; a second call refreshes its money while nothing was asked for it. */
  @InjectManager()
  async recordInitiated(
    row: Pick<OdemePaymentRow, "session_id" | "provider" | "flow" | "mode" | "amount" | "currency"> & { metadata?: Record<string, unknown> | null },
    @MedusaContext() ctx: Context = {}
  ): Promise<OdemePaymentRow> {
    return ledger.recordInitiated(knexOf(ctx), row)
  }

  /** Takes the right to create the service-side transfer for a session (one caller ever wins). */
  @InjectManager()
  async claimTransferCreation(sessionId: string, details: PaymentDetails, @MedusaContext() ctx: Context = {}): Promise<OdemePaymentRow | null> {
    return ledger.claimTransferCreation(knexOf(ctx), sessionId, details)
  }

  @InjectManager()
  async endTransferCreation(
    sessionId: string,
    outcome: { creation_state: "created" | "failed" | "unknown" } & PaymentDetails,
    @MedusaContext() ctx: Context = {}
  ): Promise<OdemePaymentRow | null> {
    return ledger.endTransferCreation(knexOf(ctx), sessionId, outcome)
  }

  /** Records what was learned about a payment; the state is not touched here. */
  @InjectManager()
  async updatePaymentDetails(sessionId: string, details: PaymentDetails, @MedusaContext() ctx: Context = {}): Promise<OdemePaymentRow | null> {
    return ledger.updatePaymentDetails(knexOf(ctx), sessionId, details)
  }

  /** The only write of a payment's state, a compare-and-set on `version` (the transition function's). */
  @InjectManager()
  async compareAndSetState(
    sessionId: string,
    version: number,
    change: StateChange,
    @MedusaContext() ctx: Context = {}
  ): Promise<OdemePaymentRow | null> {
    return ledger.compareAndSetState(knexOf(ctx), sessionId, version, change)
  }

  // ---- the poller's claims (claims.ts) ---------------------------------------------

  /** Claims one page of up to `limit` transfers whose check is due under a lease, so two pollers never take the same transfer. */
  @InjectManager()
  async claimDueTransfers(limit: number, leaseSeconds: number, @MedusaContext() ctx: Context = {}): Promise<OdemePaymentRow[]> {
    return claims.claimDueTransfers(knexOf(ctx), limit, leaseSeconds)
  }

  /** What a page of checks learned about transfers whose state did not change, in one statement. */
  @InjectManager()
  async recordChecks(checks: CheckedTransfer[], @MedusaContext() ctx: Context = {}): Promise<number> {
    return claims.recordChecks(knexOf(ctx), checks)
  }

  /** Takes one verify call from the session's budget for the current window; when spent, says when the next opens. */
  @InjectManager()
  async takeVerifyBudget(
    sessionId: string,
    budget: number,
    windowSeconds: number,
    @MedusaContext() ctx: Context = {}
  ): Promise<{ ok: true } | { ok: false; retryAt: Date }> {
    return claims.takeVerifyBudget(knexOf(ctx), sessionId, budget, windowSeconds)
  }

  /** The poller ran a pass: its worker is alive (the "poller not running" item reads it). */
  @InjectManager()
  async notePollerPass(@MedusaContext() ctx: Context = {}): Promise<void> {
    return claims.notePollerPass(knexOf(ctx))
  }

  /** Transfers due for a check an hour ago and more: no process of the store runs the checks. */
  @InjectManager()
  async overdueTransferChecks(@MedusaContext() ctx: Context = {}): Promise<number> {
    return claims.overdueTransferChecks(knexOf(ctx))
  }

  // ---- the payment ledger, continued (ledger.ts) ------------------------------------

  /** Ends creation claims a stopped process left open (they become `unknown`); the sessions whose claim was ended. */
  @InjectManager()
  async endStaleCreations(olderThanSeconds: number, limit: number, @MedusaContext() ctx: Context = {}): Promise<string[]> {
    return ledger.endStaleCreations(knexOf(ctx), olderThanSeconds, limit)
  }

  /** Paid payments of a cart that no order names yet, settled at least a moment ago (the reconciler's page). */
  @InjectManager()
  async unsettledPaid(olderThanSeconds: number, limit: number, @MedusaContext() ctx: Context = {}): Promise<OdemePaymentRow[]> {
    return ledger.unsettledPaid(knexOf(ctx), olderThanSeconds, limit)
  }

  /** Names the cart on the payment and the cart's order on its payments, in one transaction. */
  @InjectTransactionManager()
  async linkCart(sessionId: string, cartId: string | null, orderId: string | null, @MedusaContext() ctx: Context = {}): Promise<void> {
    return ledger.linkCart(knexOf(ctx), sessionId, cartId, orderId)
  }

  /** Names a placed order (and its cart) on its payments that are not paid. */
  @InjectManager()
  async nameOrder(sessionIds: string[], cartId: string | null, orderId: string, @MedusaContext() ctx: Context = {}): Promise<void> {
    return ledger.nameOrder(knexOf(ctx), sessionIds, cartId, orderId)
  }

  /** What Medusa would not do for a payment, kept until it is done (null clears it). */
  @InjectManager()
  async noteMedusaRefusal(
    sessionId: string,
    what: MedusaRefusal,
    detail: { order_id: string | null; reason: string } | null,
    @MedusaContext() ctx: Context = {}
  ): Promise<void> {
    return ledger.noteMedusaRefusal(knexOf(ctx), sessionId, what, detail)
  }

  /** An order was canceled after all (by hand, say): none of its payments is listed as its order not canceled any more. */
  @InjectManager()
  async forgetOrderNotCanceled(orderId: string, @MedusaContext() ctx: Context = {}): Promise<void> {
    return ledger.forgetOrderNotCanceled(knexOf(ctx), orderId)
  }

  /** Counts a failed settle in Medusa or check at the service in a row (false: the run of failures ended). */
  @InjectManager()
  async countFailure(sessionId: string, what: "settle" | "check", failed: boolean, @MedusaContext() ctx: Context = {}): Promise<void> {
    return ledger.countFailure(knexOf(ctx), sessionId, what, failed)
  }

  /** Whether a session's customer may be paying it now (its row, a signed form, a return or a webhook since). */
  @InjectManager()
  async maybePaying(sessionId: string, since: { changed: Date; noted: Date }, @MedusaContext() ctx: Context = {}): Promise<boolean> {
    return ledger.maybePaying(knexOf(ctx), sessionId, since)
  }

  /** A Quick Checkout form was signed for the session: its customer may pay within the form's window from now. */
  @InjectManager()
  async noteFormSigned(sessionId: string, @MedusaContext() ctx: Context = {}): Promise<void> {
    return ledger.noteFormSigned(knexOf(ctx), sessionId)
  }

  /** Records a service payment of a session (one row per uuid); a later answer updates it. */
  @InjectManager()
  async recordCharge(charge: ChargeInput, @MedusaContext() ctx: Context = {}): Promise<OdemeChargeRow> {
    return ledger.recordCharge(knexOf(ctx), charge)
  }

  @InjectManager()
  async acknowledgeCharge(id: string, actor: string | null, @MedusaContext() ctx: Context = {}): Promise<OdemeChargeRow | null> {
    return ledger.acknowledgeCharge(knexOf(ctx), id, actor)
  }

  /** Money to pay back in the merchant panel: a to-do until a person says it was paid back. */
  @InjectManager()
  async recordRefund(refund: RefundInput, @MedusaContext() ctx: Context = {}): Promise<void> {
    return ledger.recordRefund(knexOf(ctx), refund)
  }

  @InjectManager()
  async acknowledgeRefund(id: string, actor: string | null, @MedusaContext() ctx: Context = {}): Promise<OdemeRefundRow | null> {
    return ledger.acknowledgeRefund(knexOf(ctx), id, actor)
  }
  // ---- the notification inbox (inbox.ts) -------------------------------------------

  /**
   * Stores a notification for a known session in one statement: the insert
   * happens only if the session is one of this store's payments; a repeat of
   * the same content only counts as a duplicate. Null: unknown session.
   */
  async storeNotification(input: NotificationInput, @MedusaContext() ctx: Context = {}): Promise<StoreResult> {
    // In the caller's transaction when it has one. Otherwise on Medusa's shared connection directly, without
    // forking an entity manager per request (the one write needs no unit of work), shared with the webhooks
    // that arrive at the same moment.
    if (ctx.manager) return (await inbox.storeNotifications(knexOf(ctx), [input]))[0]
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

  @InjectManager()
  async getNotification(id: string, @MedusaContext() ctx: Context = {}): Promise<OdemeNotificationRow | null> {
    return inbox.getNotification(knexOf(ctx), id)
  }

  /** Takes a row for processing when it is due and no other process holds a live lease on it (a delivery nothing proved: its lane's turn). */
  @InjectManager()
  async claimNotification(
    id: string,
    leaseSeconds: number,
    lane: Lane = "exact",
    @MedusaContext() ctx: Context = {}
  ): Promise<OdemeNotificationRow | null> {
    return inbox.claimNotification(knexOf(ctx), id, leaseSeconds, lane)
  }

  /** Which end of its session's lane a turn of this row takes (lib/notification-lane.ts). */
  @InjectManager()
  async laneOf(id: string, windowSeconds: number, @MedusaContext() ctx: Context = {}): Promise<Lane> {
    return inbox.laneOf(knexOf(ctx), id, windowSeconds)
  }

  /** Ends a processing attempt: done, retry at a time, or dead. */
  @InjectManager()
  async settleNotification(id: string, end: NotificationSettlement, @MedusaContext() ctx: Context = {}): Promise<void> {
    return inbox.settleNotification(knexOf(ctx), id, end)
  }

  /** Puts a claimed row back until `at` without counting an attempt (verify budget spent); counts the deferral. */
  @InjectManager()
  async deferNotification(id: string, at: Date, @MedusaContext() ctx: Context = {}): Promise<void> {
    return inbox.deferNotification(knexOf(ctx), id, at)
  }

  /** Ids of rows whose attempt is due (or whose lease ran out): proven deliveries first, then oldest first. */
  @InjectManager()
  async dueNotificationIds(limit: number, @MedusaContext() ctx: Context = {}): Promise<string[]> {
    return inbox.dueNotificationIds(knexOf(ctx), limit)
  }

  /** Gives a finished or dead row another round (admin "retry" / "check now"). */
  @InjectManager()
  async reopenNotification(id: string, @MedusaContext() ctx: Context = {}): Promise<boolean> {
    return inbox.reopenNotification(knexOf(ctx), id)
  }

  /** How many redirects of a session are stored (up to `atMost`), of those with the session's proof or of those without. */
  @InjectManager()
  async countReturns(sessionId: string, proven: boolean, atMost: number, @MedusaContext() ctx: Context = {}): Promise<number> {
    return inbox.countReturns(knexOf(ctx), sessionId, proven, atMost)
  }

  /** Whether the customer came back from the payment page saying "paid" (a redirect: navigation, never proof). */
  @InjectManager()
  async hasPaidReturn(sessionId: string, @MedusaContext() ctx: Context = {}): Promise<boolean> {
    return inbox.hasPaidReturn(knexOf(ctx), sessionId)
  }

  /** How many webhooks of a session wait to be processed (up to `atMost`). */
  @InjectManager()
  async countOpenWebhooks(sessionId: string, atMost: number, @MedusaContext() ctx: Context = {}): Promise<number> {
    return inbox.countOpenWebhooks(knexOf(ctx), sessionId, atMost)
  }

  /** The session's notifications that the verify endpoint can judge, newest first (refused ones last). */
  @InjectManager()
  async verifiableNotificationIds(sessionId: string, limit: number, @MedusaContext() ctx: Context = {}): Promise<string[]> {
    return inbox.verifiableNotificationIds(knexOf(ctx), sessionId, limit)
  }

  /** When the last webhook arrived, how many came in 24 hours, and how many of those through Medusa's hook route were genuine. */
  @InjectManager()
  async webhookHealth(@MedusaContext() ctx: Context = {}): Promise<{ last_webhook_at: Date | null; webhooks_24h: number; medusa_hook_24h: number }> {
    return inbox.webhookHealth(knexOf(ctx))
  }

  /** Notifications for references this store never made: how many, when the last came, and the last few. */
  @InjectManager()
  async strayNotifications(
    @MedusaContext() ctx: Context = {}
  ): Promise<{ count: number; last_at: Date | null; recent: Array<{ order_id: string; status: string | null; at: string }> }> {
    return inbox.strayNotifications(knexOf(ctx))
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
}

// ---- statements too long to read inside their method, and what they share ----------

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
