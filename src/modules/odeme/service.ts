import type { Context } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, InjectManager, MedusaContext, MedusaService } from "@medusajs/framework/utils"
import type { Knex } from "@medusajs/framework/mikro-orm/knex"
import type { OdemeClient } from "../../client"
import type { BankDirectory } from "../../lib/bank-directory"
import { type OdemeOptions } from "../../lib/options"
import { registerPluginOptions } from "../../lib/options-registration"
import { createServiceClient } from "../../lib/service-client"
import OdemeCharge from "./models/odeme-charge"
import OdemeNotification from "./models/odeme-notification"
import OdemePayment from "./models/odeme-payment"
import OdemeRefund from "./models/odeme-refund"
import { NotificationBatcher } from "./notification-batcher"
import { listAttention, webhookHealth } from "./sql/attention"
import * as charges from "./sql/charges"
import * as notifications from "./sql/notifications"
import * as payments from "./sql/payments"
import * as refunds from "./sql/refunds"
import { knexOf, serialize } from "./sql/tables"
import type {
  AttentionKind,
  AttentionRow,
  CheckedTransfer,
  NotificationSettlement,
  OdemeChargeRow,
  OdemeNotificationRow,
  OdemePaymentRow,
  OdemeRefundRow,
  PaymentDetails,
  StateChange,
} from "./types"

export type * from "./types"

type Logger = { debug(m: string): void; warn(m: string): void; error(m: string): void }

/**
 * The plugin's module: its tables (payments, charges, notification inbox),
 * the SQL that keeps them consistent under concurrency (in ./sql, one file
 * per table, called only from here), and the configured service client.
 * The rest of the plugin calls these methods and never touches the tables.
 */
class OdemeModuleService extends MedusaService({
  OdemePayment,
  OdemeNotification,
  OdemeCharge,
  OdemeRefund,
}) {
  readonly odemeOptions: OdemeOptions
  readonly client: OdemeClient
  readonly banks: BankDirectory
  private readonly pg_: Knex
  private readonly intake_: NotificationBatcher<notifications.NotificationInput, notifications.StoreResult>

  constructor(container: Record<string, unknown>, options: Record<string, unknown>) {
    // eslint-disable-next-line prefer-rest-params
    super(...(arguments as unknown as [Record<string, unknown>]))
    // Also compares with the options the payment provider was given (a boot error if they differ).
    this.odemeOptions = registerPluginOptions(options)
    this.pg_ = container[ContainerRegistrationKeys.PG_CONNECTION] as Knex
    this.intake_ = new NotificationBatcher((inputs) => notifications.storeNotifications(this.pg_, inputs))
    const { client, banks } = createServiceClient(this.odemeOptions, container.logger as Logger | undefined)
    this.client = client
    this.banks = banks
  }

  // ---- payments -----------------------------------------------------------

  @InjectManager()
  async getPayment(sessionId: string, @MedusaContext() ctx: Context = {}): Promise<OdemePaymentRow | null> {
    return payments.getPayment(knexOf(ctx), sessionId)
  }

  /** Records a session when it is initiated; a second call only refreshes amount and currency. */
  @InjectManager()
  async recordInitiated(
    row: Pick<OdemePaymentRow, "session_id" | "provider" | "flow" | "mode" | "amount" | "currency"> & { metadata?: Record<string, unknown> | null },
    @MedusaContext() ctx: Context = {}
  ): Promise<OdemePaymentRow> {
    return payments.recordInitiated(knexOf(ctx), row)
  }

  /**
   * Takes the right to create the service-side transfer for a session. Only
   * one caller ever wins while nothing was created; a refusal by the service
   * ("failed") may be retried, an unknown outcome never.
   */
  @InjectManager()
  async claimTransferCreation(sessionId: string, details: PaymentDetails, @MedusaContext() ctx: Context = {}): Promise<OdemePaymentRow | null> {
    return payments.claimTransferCreation(knexOf(ctx), sessionId, details)
  }

  @InjectManager()
  async endTransferCreation(
    sessionId: string,
    outcome: { creation_state: "created" | "failed" | "unknown" } & PaymentDetails,
    @MedusaContext() ctx: Context = {}
  ): Promise<OdemePaymentRow | null> {
    return payments.updatePaymentWhere(knexOf(ctx), { session_id: sessionId, creation_state: "creating" }, serialize(outcome))
  }

  /** Records what was learned about a payment; the state is not touched here. */
  @InjectManager()
  async updatePaymentDetails(sessionId: string, details: PaymentDetails, @MedusaContext() ctx: Context = {}): Promise<OdemePaymentRow | null> {
    return payments.updatePaymentWhere(knexOf(ctx), { session_id: sessionId }, serialize(details))
  }

  /**
   * The only write of a payment's state: succeeds only if nobody moved the
   * payment since `version` was read. Called by the transition function
   * (src/lib/payment-state/apply-service-answer.ts) and nothing else.
   */
  @InjectManager()
  async compareAndSetState(sessionId: string, version: number, change: StateChange, @MedusaContext() ctx: Context = {}): Promise<OdemePaymentRow | null> {
    return payments.compareAndSetState(knexOf(ctx), sessionId, version, change)
  }

  /**
   * Claims one page of up to `limit` transfers whose check is due (newest
   * first) under a lease, so two pollers never take the same transfer; `unknown`
   * transfers are asked about too once a notification told their uuid, and a
   * paid one whose settling in Medusa failed stays due until it is settled.
   */
  @InjectManager()
  async claimDueTransfers(limit: number, leaseSeconds: number, @MedusaContext() ctx: Context = {}): Promise<OdemePaymentRow[]> {
    return payments.claimDueTransfers(knexOf(ctx), limit, leaseSeconds)
  }

  /** What a page of checks learned about transfers whose state did not change, in one statement. */
  @InjectManager()
  async recordChecks(checks: CheckedTransfer[], @MedusaContext() ctx: Context = {}): Promise<number> {
    return payments.recordChecks(knexOf(ctx), checks)
  }

  /** Takes one verify call from the session's budget for the current window; when spent, says when the next opens. */
  @InjectManager()
  async takeVerifyBudget(
    sessionId: string,
    budget: number,
    windowSeconds: number,
    @MedusaContext() ctx: Context = {}
  ): Promise<{ ok: true } | { ok: false; retryAt: Date }> {
    return payments.takeVerifyBudget(knexOf(ctx), sessionId, budget, windowSeconds)
  }

  // ---- charges --------------------------------------------------------------

  /** Records a service payment of a session (one row per uuid); a later answer updates it. */
  @InjectManager()
  async recordCharge(charge: charges.ChargeInput, @MedusaContext() ctx: Context = {}): Promise<OdemeChargeRow> {
    return charges.recordCharge(knexOf(ctx), charge)
  }

  @InjectManager()
  async acknowledgeCharge(id: string, actor: string | null, @MedusaContext() ctx: Context = {}): Promise<OdemeChargeRow | null> {
    return charges.acknowledgeCharge(knexOf(ctx), id, actor)
  }

  // ---- notification inbox -----------------------------------------------------

  /**
   * Stores a notification for a known session in one statement: the insert
   * happens only if the session is one of this store's payments; a repeat of
   * the same content only counts as a duplicate. Null: unknown session.
   */
  async storeNotification(input: notifications.NotificationInput, @MedusaContext() ctx: Context = {}): Promise<notifications.StoreResult> {
    // In the caller's transaction when it has one. Otherwise on Medusa's shared connection directly, without
    // forking an entity manager per request (the one write needs no unit of work), shared with the webhooks
    // that arrive at the same moment.
    if (ctx.manager) return (await notifications.storeNotifications(knexOf(ctx), [input]))[0]
    return this.intake_.add(input)
  }

  @InjectManager()
  async getNotification(id: string, @MedusaContext() ctx: Context = {}): Promise<OdemeNotificationRow | null> {
    return ((await knexOf(ctx)("odeme_notification").whereNull("deleted_at").where({ id }).first()) as OdemeNotificationRow | undefined) ?? null
  }

  /** Takes a row for processing when it is due and no other process holds a live lease on it. */
  @InjectManager()
  async claimNotification(id: string, leaseSeconds: number, @MedusaContext() ctx: Context = {}): Promise<OdemeNotificationRow | null> {
    return notifications.claimNotification(knexOf(ctx), id, leaseSeconds)
  }

  /** Ends a processing attempt: done, retry at a time, or dead. */
  @InjectManager()
  async settleNotification(id: string, end: NotificationSettlement, @MedusaContext() ctx: Context = {}): Promise<void> {
    return notifications.settleNotification(knexOf(ctx), id, end)
  }

  /** Puts a claimed row back until `at` without counting an attempt (verify budget spent). */
  @InjectManager()
  async deferNotification(id: string, at: Date, @MedusaContext() ctx: Context = {}): Promise<void> {
    return notifications.deferNotification(knexOf(ctx), id, at)
  }

  /** Ids of rows whose attempt is due (or whose lease ran out), oldest first. */
  @InjectManager()
  async dueNotificationIds(limit: number, @MedusaContext() ctx: Context = {}): Promise<string[]> {
    return notifications.dueNotificationIds(knexOf(ctx), limit)
  }

  /** Gives a finished or dead row another round (admin "retry" / "check now"). */
  @InjectManager()
  async reopenNotification(id: string, @MedusaContext() ctx: Context = {}): Promise<boolean> {
    return notifications.reopenNotification(knexOf(ctx), id)
  }

  /** How many redirects of a session are stored (up to `atMost`). */
  @InjectManager()
  async countReturns(sessionId: string, atMost: number, @MedusaContext() ctx: Context = {}): Promise<number> {
    return notifications.countStored(knexOf(ctx), sessionId, "return", atMost)
  }

  /** How many webhooks of a session wait to be processed (up to `atMost`). */
  @InjectManager()
  async countOpenWebhooks(sessionId: string, atMost: number, @MedusaContext() ctx: Context = {}): Promise<number> {
    return notifications.countStored(knexOf(ctx), sessionId, "webhook", atMost, true)
  }

  /** The session's notifications that the verify endpoint can judge, newest first (refused ones last). */
  @InjectManager()
  async verifiableNotificationIds(sessionId: string, limit: number, @MedusaContext() ctx: Context = {}): Promise<string[]> {
    return notifications.verifiableNotificationIds(knexOf(ctx), sessionId, limit)
  }

  // ---- what needs a person ------------------------------------------------------

  /** What a person must look at, newest first, with counts (see sql/attention.ts). */
  @InjectManager()
  async listAttention(
    page: { limit: number; offset: number; sessionIds?: string[] },
    @MedusaContext() ctx: Context = {}
  ): Promise<{ rows: AttentionRow[]; counts: Record<AttentionKind, number> }> {
    const n = this.odemeOptions.notifications
    return listAttention(knexOf(ctx), page, { unconfirmedAfterMinutes: n.unconfirmedAfterMinutes, failures: n.failuresBeforeAttention })
  }

  /** When the last webhook arrived and how many came in 24 hours. */
  @InjectManager()
  async webhookHealth(@MedusaContext() ctx: Context = {}): Promise<{ last_webhook_at: Date | null; webhooks_24h: number }> {
    return webhookHealth(knexOf(ctx))
  }

  /** A person closed a review item with what they did (kept in the timeline); the state is not changed. */
  @InjectManager()
  async resolvePayment(sessionId: string, actor: string | null, note: string, @MedusaContext() ctx: Context = {}): Promise<OdemePaymentRow | null> {
    return payments.resolvePayment(knexOf(ctx), sessionId, actor, note)
  }

  // ---- refunds to make by hand ------------------------------------------------

  /** A refund Medusa recorded (the service has no refund call): a to-do until a person says it was paid back. */
  @InjectManager()
  async recordRefund(refund: refunds.RefundInput, @MedusaContext() ctx: Context = {}): Promise<void> {
    return refunds.recordRefund(knexOf(ctx), refund)
  }

  @InjectManager()
  async acknowledgeRefund(id: string, actor: string | null, @MedusaContext() ctx: Context = {}): Promise<OdemeRefundRow | null> {
    return refunds.acknowledgeRefund(knexOf(ctx), id, actor)
  }

  /** Ends creation claims a stopped process left open (they become `unknown`); the sessions it ended. */
  @InjectManager()
  async endStaleCreations(olderThanSeconds: number, limit: number, @MedusaContext() ctx: Context = {}): Promise<string[]> {
    return payments.endStaleCreations(knexOf(ctx), olderThanSeconds, limit)
  }

  /** Paid payments of a cart that no order names yet (the reconciler's page). */
  @InjectManager()
  async unsettledPaid(olderThanSeconds: number, limit: number, @MedusaContext() ctx: Context = {}): Promise<OdemePaymentRow[]> {
    return payments.unsettledPaid(knexOf(ctx), olderThanSeconds, limit)
  }

  /** Names the cart (and its order) on the payment; the order also on the cart's other payments. */
  @InjectManager()
  async linkCart(sessionId: string, cartId: string | null, orderId: string | null, @MedusaContext() ctx: Context = {}): Promise<void> {
    return payments.linkCart(knexOf(ctx), sessionId, cartId, orderId)
  }

  /** Counts a failed settle in Medusa or check at the service in a row (false: the run of failures ended). */
  @InjectManager()
  async countFailure(sessionId: string, what: "settle" | "check", failed: boolean, @MedusaContext() ctx: Context = {}): Promise<void> {
    return payments.countFailure(knexOf(ctx), sessionId, what, failed)
  }
}

export default OdemeModuleService
