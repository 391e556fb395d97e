import { AbstractPaymentProvider, ContainerRegistrationKeys, MedusaError, Modules, PaymentActions } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import type {
  AuthorizePaymentInput,
  AuthorizePaymentOutput,
  CancelPaymentInput,
  CancelPaymentOutput,
  CapturePaymentInput,
  CapturePaymentOutput,
  DeletePaymentInput,
  DeletePaymentOutput,
  GetPaymentStatusInput,
  GetPaymentStatusOutput,
  InitiatePaymentInput,
  InitiatePaymentOutput,
  Logger,
  ProviderWebhookPayload,
  RefundPaymentInput,
  RefundPaymentOutput,
  RetrievePaymentInput,
  RetrievePaymentOutput,
  UpdatePaymentInput,
  UpdatePaymentOutput,
  WebhookActionResult,
} from "@medusajs/framework/types"
import type { OdemeClient } from "../../../client"
import { formatAmount } from "../../../client/amount"
import { amountMayChange, sameMoney } from "../../../lib/amount-rules"
import { odemeError } from "../../../lib/medusa-errors"
import { adminOdemeError } from "../../../lib/admin-errors"
import type { BankDirectory } from "../../../modules/odeme/bank-directory"
import { NOTIFICATION_EVENT } from "../../../lib/notification-event"
import { parseOdemeOptions, type OdemeOptions } from "../../../lib/options"
import { assertPluginRegistered, noteProviderOptions } from "../../../lib/options-registration"
import { applyServiceAnswer, type Applied } from "../../../workflows/payment-state/apply-service-answer"
import { medusaState } from "../../../workflows/settle/read-model"
import { keyMode, knownKeyMode } from "../../../modules/odeme/key-mode"
import { odemeModule, rootContainer } from "../../../modules/odeme/resolve"
import type { ServiceAnswer } from "../../../lib/payment-state/transitions"
import { toSessionStatus, type OdemeState } from "../../../lib/status"
import { sessionTag, taggedSessionId, untaggedSessionId } from "../../../lib/session-tag"
import { takeWebhook } from "../../../workflows/intake/store-webhook"
import type OdemeModuleService from "../../../modules/odeme/service"
import { errorText } from "../../../lib/error-text"

type Data = Record<string, unknown>

const KEY_MODE_UNNAMED =
  "medusa-payment-odeme: the service did not say which mode the API key is of, so a sandbox key in this live store would not be caught. Run Test connection in Settings → Odeme."
const SANDBOX_KEY_IN_LIVE =
  'medusa-payment-odeme: mode is "live" but the API key is a sandbox key: no payment is started, and none told paid is captured. Set the live key (Settings → Odeme → Test connection).'

/**
 * Everything the plugin's two providers share: options, the plugin's module
 * (its payment table and the one service client), and the parts of Medusa's lifecycle that do
 * not depend on the payment method (capture, cancel, delete, refund). The
 * subclasses only say how a session starts and how it becomes authorized.
 */
export abstract class OdemeBase extends AbstractPaymentProvider<OdemeOptions> {
  protected readonly options_: OdemeOptions
  protected readonly logger_: Logger

  static validateOptions(options: Record<string, unknown>): void {
    noteProviderOptions(options)
  }

  protected constructor(cradle: Record<string, unknown>, options: Record<string, unknown>) {
    const parsed = parseOdemeOptions(options)
    assertPluginRegistered(parsed)
    super(cradle, parsed)
    this.options_ = parsed
    this.logger_ = (cradle[ContainerRegistrationKeys.LOGGER] as Logger | undefined) ?? (console as unknown as Logger)
  }

  /**
   * The plugin module's service client and bank list: one connection pool and
   * one cache per process, the same ones the store's bank route and the poller
   * use (the two registrations are checked to have the same options).
   */
  protected get client_(): OdemeClient {
    return this.odeme.client
  }

  protected get banks_(): BankDirectory {
    return this.odeme.banks
  }

  /**
   * The plugin's module (its tables and their SQL). Providers live in the
   * payment module's container, so it is reached through Medusa's root
   * container; a store that registered the provider without the plugin gets
   * an error that says what to add.
   */
  protected get odeme(): OdemeModuleService {
    return odemeModule(rootContainer)
  }

  /** The transition function, for what Medusa itself asked: Medusa acts on the status returned. */
  protected apply(sessionId: string, answer: ServiceAnswer): Promise<Applied> {
    return applyServiceAnswer(rootContainer as MedusaContainer, sessionId, answer, { act: false, sessionAlive: true })
  }

  /**
   * A live store whose key is a sandbox key would send customers to the
   * sandbox's pages, where nothing they pay moves money (modules/odeme/key-mode): once
   * the service has named the key's mode, no payment is started. A session's
   * start does not wait for that answer: the first one asks it in the
   * background, and nothing paid on any session is captured before the
   * answer is known (applyServiceAnswer waits for it).
   */
  protected refuseSandboxKeyInLiveStore(): void {
    if (this.options_.mode !== "live") return
    const client = this.odeme.client
    const known = knownKeyMode(client)
    if (known === undefined) {
      keyMode(client).then(
        (mode) => {
          if (mode === "sandbox") this.logger_.error(SANDBOX_KEY_IN_LIVE)
          else if (mode === null) this.logger_.warn(KEY_MODE_UNNAMED)
        },
        (err: unknown) => this.logger_.warn(`medusa-payment-odeme: could not ask the service which mode the API key is of: ${errorText(err)}`)
      )
      return
    }
    if (known !== "sandbox") return
    this.logger_.error(SANDBOX_KEY_IN_LIVE)
    throw odemeError(
      MedusaError.Types.UNEXPECTED_STATE,
      "odeme.service_misconfigured",
      "The store's payment settings are incomplete, so this payment method cannot be used right now."
    )
  }

  protected sessionIdOf(data: Data | undefined): string {
    const id = data?.session_id
    if (typeof id !== "string" || !id) {
      throw odemeError(MedusaError.Types.INVALID_DATA, "odeme.invalid_session_data", "The payment session data has no session_id.")
    }
    return id
  }

  /**
   * The session Medusa is acting on. Medusa names it in the call's context
   * (`idempotency_key` is the session id for initiate and authorize); data that
   * names another session is refused, never followed.
   */
  protected medusaSessionId(input: { data?: Data; context?: { idempotency_key?: string } }): string {
    const fromContext = input.context?.idempotency_key
    const fromData = input.data?.session_id
    if (typeof fromContext === "string" && fromContext.startsWith("payses_")) {
      if (fromData !== undefined && fromData !== fromContext) {
        throw odemeError(MedusaError.Types.INVALID_DATA, "odeme.invalid_session_data", "The payment session data names another session.")
      }
      return fromContext
    }
    return this.sessionIdOf(input.data)
  }

  /** What every provider adds to a session's data: the session id with the tag that proves the plugin wrote it. */
  protected ownership(sessionId: string): Data {
    return { session_id: sessionId, session_tag: sessionTag(this.options_.apiKey, sessionId) }
  }

  abstract initiatePayment(input: InitiatePaymentInput): Promise<InitiatePaymentOutput>
  abstract authorizePayment(input: AuthorizePaymentInput): Promise<AuthorizePaymentOutput>
  /** The current plugin state of a session, asking the service where that is meaningful. */
  protected abstract currentState(data: Data): Promise<{ state: OdemeState; data: Data }>

  async getPaymentStatus(input: GetPaymentStatusInput): Promise<GetPaymentStatusOutput> {
    const { state, data } = await this.currentState(input.data ?? {})
    return { status: toSessionStatus(state), data }
  }

  async retrievePayment(input: RetrievePaymentInput): Promise<RetrievePaymentOutput> {
    const { data } = await this.currentState(input.data ?? {})
    return data
  }

  /**
   * Cart totals changing deletes the session in Medusa 2.21 (no core flow calls this). An update may change the
   * amount only of a session nothing was asked for yet: a Quick Checkout form is signed with the amount when the
   * session starts, and a transfer is created with it, so such a session keeps its money and another one is opened.
   */
  async updatePayment(input: UpdatePaymentInput): Promise<UpdatePaymentOutput> {
    const sessionId = this.medusaSessionId(input as InitiatePaymentInput)
    const row = await this.odeme.getPayment(sessionId)
    if (row && !amountMayChange(row) && !sameMoney(row, input)) {
      throw odemeError(
        MedusaError.Types.NOT_ALLOWED,
        "odeme.amount_changed",
        "This payment's amount can no longer change: start a new payment session for the new amount."
      )
    }
    const out = await this.initiatePayment(input as InitiatePaymentInput)
    return { status: out.status, data: out.data }
  }

  /** The service captures on approval, so capture only confirms what the service confirmed. */
  async capturePayment(input: CapturePaymentInput): Promise<CapturePaymentOutput> {
    const data = input.data ?? {}
    const row = typeof data.session_id === "string" ? await this.odeme.getPayment(data.session_id) : null
    if (!row || row.status !== "paid") {
      throw new MedusaError(
        MedusaError.Types.NOT_ALLOWED,
        row
          ? `Payment ${row.session_id} cannot be captured: the payment service has not confirmed it (state: ${row.status}).`
          : `This payment cannot be captured: medusa-payment-odeme has no record of session ${String(data.session_id ?? "(none)")}.`
      )
    }
    return { data: { ...data, captured: true } }
  }

  /**
   * The spec has no cancel call: cancel is local, and a later approval goes to
   * review. Only data the plugin wrote for a session (its tag) cancels that
   * session: Medusa also hands the storefront's own data here when a
   * session's creation fails, and that may name someone else's session.
   */
  async cancelPayment(input: CancelPaymentInput): Promise<CancelPaymentOutput> {
    const data = input.data ?? {}
    const sessionId = taggedSessionId(this.options_.apiKey, data) ?? (await this.untaggedSessionId(data))
    if (!sessionId) {
      if (data.session_id !== undefined) {
        this.logger_.warn(
          `medusa-payment-odeme: a cancel or delete named session ${String(data.session_id).slice(0, 80)} without the plugin's tag; nothing was canceled`
        )
      }
      return { data }
    }
    const row = await this.odeme.getPayment(sessionId)
    if (row) {
      if (!row.order_id) {
        // Medusa asks before it deletes the session: once it is gone, nothing leads from the session to its cart
        // and order, and an item about money paid later (an IBAN already shown, a form already open) must name them.
        // Best effort: the cancel itself must not fail on it (Medusa would keep a session it means to delete).
        try {
          const found = await medusaState(rootContainer as MedusaContainer, sessionId)
          if (found.cartId || found.orderId) await this.odeme.linkCart(sessionId, found.cartId, found.orderId)
        } catch (err) {
          this.logger_.warn(`medusa-payment-odeme: could not note the cart and order of session ${sessionId} before its cancel: ${errorText(err)}`)
        }
      }
      await this.apply(sessionId, { kind: "canceled" })
    }
    return { data: { ...data, state: "canceled" } }
  }

  /**
   * A session started before the plugin tagged its data (a store upgraded with it open): Medusa hands over the
   * data it stored for the session when it deletes it, and only then is the session id in it believed.
   */
  private async untaggedSessionId(data: Data): Promise<string | null> {
    if (typeof data.session_id !== "string" || !data.session_id.startsWith("payses_") || "session_tag" in data) return null
    try {
      const query = (rootContainer as MedusaContainer).resolve(ContainerRegistrationKeys.QUERY)
      const { data: sessions } = await query.graph({ entity: "payment_session", fields: ["data"], filters: { id: data.session_id } })
      return untaggedSessionId(data, (sessions[0] as { data?: unknown } | undefined)?.data)
    } catch (err) {
      this.logger_.warn(`medusa-payment-odeme: could not read session ${data.session_id} to cancel it: ${errorText(err)}`)
      return null
    }
  }

  async deletePayment(input: DeletePaymentInput): Promise<DeletePaymentOutput> {
    return this.cancelPayment(input)
  }

  async refundPayment(input: RefundPaymentInput): Promise<RefundPaymentOutput> {
    const data = input.data ?? {}
    if (this.options_.refunds === "reject") {
      // Shown as it is in Medusa Admin's toast (the plugin's Admin cannot translate it): Turkish, then English.
      throw adminOdemeError(
        MedusaError.Types.NOT_ALLOWED,
        "odeme.refunds_rejected",
        "İadeler ödeme hizmetinin API'si üzerinden yapılamaz: müşteriye iadeyi üye işyeri panelinden yapın (bu iadeleri Medusa'da kaydetmek için eklentinin refunds seçeneğini \"manual\" yapın). / " +
          'Refunds cannot be made through the payment service\'s API: refund the customer in the merchant panel (to record such refunds in Medusa, set the plugin option refunds: "manual").'
      )
    }
    const amount = formatAmount(input.amount as never)
    const refunds = Array.isArray(data.manual_refunds) ? (data.manual_refunds as unknown[]) : []
    const note = `Refund of ${amount} recorded in Medusa only: it must be paid back in the merchant panel of the payment service.`
    this.logger_.warn(`medusa-payment-odeme: ${note} (session ${String(data.session_id ?? "?")})`)
    // An admin's refund, a canceled order's captured payment, or Medusa's compensation of a cart that
    // could not become an order: each is money a person must pay back, listed until acknowledged.
    const sessionId = typeof data.session_id === "string" ? data.session_id : null
    const row = sessionId ? await this.odeme.getPayment(sessionId) : null
    if (row) {
      await this.odeme.recordRefund({
        session_id: row.session_id,
        medusa_refund_id: input.context?.idempotency_key ?? null,
        amount,
        // Medusa's amount, so Medusa's (the session's) currency: not what the service charged, which may be TRY.
        currency: row.currency,
      })
    }
    return {
      data: { ...data, manual_refunds: [...refunds, { amount, recorded_at: new Date().toISOString(), note }] },
    }
  }

  /**
   * Notifications belong on the plugin's own route (POST /odeme/webhook),
   * which stores them before answering. If a merchant entered Medusa's
   * generic /hooks/payment URL instead, the notification is still put in the
   * same inbox and goes through the one confirmation path (verify, match,
   * one capture); Medusa itself is told there is nothing for it to do.
   */
  async getWebhookActionAndData(payload: ProviderWebhookPayload["payload"]): Promise<WebhookActionResult> {
    let intake: Awaited<ReturnType<typeof takeWebhook>>
    try {
      intake = await takeWebhook(this.odeme, payload.data, payload.rawData)
    } catch (err) {
      // Medusa answered the service 200 before this ran: only Medusa's own retry of its event (where its event bus
      // retries) may bring it back.
      this.logger_.error(
        `medusa-payment-odeme: a notification on Medusa's generic hook route could not be stored (${errorText(err)}); it may be lost. Enter ${this.options_.backendUrl}/odeme/webhook in the merchant panel: that route answers 503 in such a case, so the service delivers it again`
      )
      throw err
    }
    if (intake.kind !== "stored") {
      const why = intake.kind === "stray" ? "no payment of this store has its order_id (counted in Settings → Odeme)" : intake.message
      this.logger_.warn(`medusa-payment-odeme: notification on Medusa's generic hook route ignored: ${why}`)
      return { action: PaymentActions.NOT_SUPPORTED }
    }
    this.logger_.warn(
      `medusa-payment-odeme: a notification arrived on Medusa's generic hook route; it was stored, but enter ${this.options_.backendUrl}/odeme/webhook in the merchant panel`
    )
    if (intake.process) {
      const bus = this.container[Modules.EVENT_BUS] as { emit(e: unknown): Promise<void> } | undefined
      // Without a bus here the poller still processes the stored row.
      await bus?.emit({ name: NOTIFICATION_EVENT, data: { id: intake.row.id } }).catch(() => undefined)
    }
    return { action: PaymentActions.NOT_SUPPORTED }
  }
}
