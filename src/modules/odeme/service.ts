import type { Context } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, InjectManager, InjectTransactionManager, MedusaContext, MedusaService } from "@medusajs/framework/utils"
import type { Knex } from "@medusajs/framework/mikro-orm/knex"
import type { OdemeClient } from "../../client"
import type { BankDirectory } from "./bank-directory"
import type { Lane } from "../../lib/notification-lane"
import { type OdemeOptions } from "../../lib/options"
import { registerPluginOptions } from "../../lib/options-registration"
import * as attention from "./attention"
import * as claims from "./claims"
import * as inbox from "./inbox"
import * as ledger from "./ledger"
import { SERVICE_CLIENT, type ServiceClient } from "./loaders/service-client"
import OdemeCharge from "./models/odeme-charge"
import OdemeHealth from "./models/odeme-health"
import OdemeNotification from "./models/odeme-notification"
import OdemePayment from "./models/odeme-payment"
import OdemeRefund from "./models/odeme-refund"
import { NotificationBatcher } from "./notification-batcher"
import { insertInitiated, sessionOfOrderId, type InitiatedRow } from "./references"
import { knexOf } from "./rows"
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
  StoreResult,
} from "./types"

export type * from "./types"
/** The bench's EXPLAIN reads the statements from here. */
export { CLAIM_SQL } from "./claims"
export { STORE_SQL } from "./inbox-sql"

/**
 * The plugin's module: its tables (payments, charges, notification inbox,
 * refunds), the SQL that keeps them consistent under concurrency, and the
 * configured service client. The rest of the plugin calls these methods and
 * never touches the tables.
 *
 * The methods are the module's one public face; each takes its manager or
 * transaction through Medusa's decorators and hands the knex to its seam,
 * where the statements are: the payment ledger (ledger.ts), the poller's
 * claims (claims.ts), the notification inbox (inbox.ts, inbox-sql.ts) and
 * the attention read model (attention.ts, attention-sql.ts).
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
    // The module's loader (loaders/service-client.ts) builds them when first resolved, here.
    const { client, banks } = container[SERVICE_CLIENT] as ServiceClient
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
  async recordInitiated(row: InitiatedRow, @MedusaContext() ctx: Context = {}): Promise<OdemePaymentRow> {
    return insertInitiated(knexOf(ctx), row, this.odemeOptions.referencePrefix)
  }

  /** The session a notification's `order_id` names: its short reference, or the id of a session from before them. */
  @InjectManager()
  async sessionOfOrderId(orderId: string, @MedusaContext() ctx: Context = {}): Promise<string | null> {
    return sessionOfOrderId(knexOf(ctx), orderId)
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

  // ---- the attention read model (attention.ts) ----------------------------------------

  /** What a person must look at, newest first, with counts by kind and code (thresholds from the plugin's options). */
  @InjectManager()
  async listAttention(
    page: { limit: number; offset: number; sessionIds?: string[]; kinds?: AttentionKind[] },
    @MedusaContext() ctx: Context = {}
  ): Promise<{ rows: AttentionRow[]; counts: Record<AttentionKind, number>; codes: Record<string, number> }> {
    return attention.listAttention(knexOf(ctx), this.odemeOptions, page)
  }

  /** A person closed a review or stuck item with what they did; the state is not changed. */
  @InjectManager()
  async resolvePayment(sessionId: string, actor: string | null, note: string, @MedusaContext() ctx: Context = {}): Promise<OdemePaymentRow | null> {
    return attention.resolvePayment(knexOf(ctx), sessionId, actor, note)
  }
}

export default OdemeModuleService
