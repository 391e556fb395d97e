import { MedusaError } from "@medusajs/framework/utils"
import type { AuthorizePaymentInput, AuthorizePaymentOutput, InitiatePaymentInput, InitiatePaymentOutput } from "@medusajs/framework/types"
import { OdemeApiError, type TransferRecord } from "../../../client"
import { chargeableAmount } from "../../../lib/amount-rules"
import { formatIban } from "../../../lib/bank-accounts"
import { transferAnswer } from "../../../lib/judge"
import { transferCreatedAt, transferDetails, transferExpiresAt } from "../../../lib/transfer-check"
import { serviceOrderId } from "../../../lib/order-reference"
import { odemeError, toMedusaError } from "../../../lib/medusa-errors"
import { TRANSFER_CURRENCIES } from "../../../lib/options"
import { toSessionStatus, type OdemeState } from "../../../lib/status"
import type { OdemePaymentRow } from "../../../modules/odeme/service"
import { OdemeBase } from "../core/odeme-base"
import { PaymentProviderKeys } from "../types"
import { parseTransferSessionData } from "../utils/transfer-session-data"

type Data = Record<string, unknown>

/** How long a concurrent authorize waits for another one that is creating the transfer. */
const CREATION_WAIT_MS = 15_000

/**
 * Bank transfer (havale/EFT) through the service's API (spec §4.3–4.6).
 * The transfer is created when the cart is completed, at most once per
 * session; the order waits in "awaiting" until the service approves it.
 */
export class OdemeTransferProvider extends OdemeBase {
  static identifier = PaymentProviderKeys.TRANSFER

  constructor(cradle: Record<string, unknown>, options: Record<string, unknown>) {
    super(cradle, options)
  }

  async initiatePayment(input: InitiatePaymentInput): Promise<InitiatePaymentOutput> {
    const data = { ...parseTransferSessionData(input.data), session_id: this.medusaSessionId(input) }
    const { amount, currency } = chargeableAmount(input, TRANSFER_CURRENCIES, this.options_, "Bank transfer")
    this.refuseSandboxKeyInLiveStore()
    const banks = await this.banks_.accounts().catch((e) => {
      throw toMedusaError(e, "list the bank accounts", undefined, this.logger_)
    })
    if (data.bank_id !== undefined && !banks.some((b) => b.bank_id === data.bank_id)) {
      throw odemeError(
        MedusaError.Types.INVALID_DATA,
        "odeme.bank_unknown",
        `Unknown bank_id ${data.bank_id}: choose one of the listed bank accounts (${banks.map((b) => b.bank_id).join(", ")}).`
      )
    }
    const recorded = await this.odeme.recordInitiated({
      session_id: data.session_id,
      provider: PaymentProviderKeys.TRANSFER,
      flow: "transfer_api",
      mode: this.options_.mode,
      amount,
      currency,
    })
    return {
      id: data.session_id,
      status: toSessionStatus("pending"),
      data: {
        ...data,
        ...this.ownership(data.session_id),
        provider: PaymentProviderKeys.TRANSFER,
        reference: data.session_id,
        // What the shopper may quote (the service knows the payment by it); `reference` stays the session id.
        shopper_reference: recorded.reference,
        mode: this.options_.mode,
        amount,
        currency,
        banks,
        state: "pending" satisfies OdemeState,
      },
    }
  }

  async authorizePayment(input: AuthorizePaymentInput): Promise<AuthorizePaymentOutput> {
    const data = { ...parseTransferSessionData(input.data), session_id: this.medusaSessionId(input) }
    const row = await this.odeme.getPayment(data.session_id)
    if (!row) {
      throw odemeError(
        MedusaError.Types.NOT_FOUND,
        "odeme.session_unknown",
        `Payment session ${data.session_id} is unknown to medusa-payment-odeme; create a new payment session.`
      )
    }
    // Proven paid already (the poller's uuid check or a verified notification): Medusa's capture of it must not
    // wait on the service answering once more.
    if (row.status === "paid") return { status: toSessionStatus("paid"), data: this.publicData(input.data ?? {}, row, 1) }
    if (row.service_uuid) return this.authorizeOutcome(await this.refresh(row, input.data ?? {}))
    if (row.status === "unknown" || row.creation_state === "unknown") throw creationUnknownError()
    if (row.status !== "pending") {
      throw odemeError(MedusaError.Types.NOT_ALLOWED, "odeme.payment_canceled", `This payment is ${row.status}; create a new payment session.`)
    }
    if (data.bank_id === undefined || !data.customer_name) {
      throw odemeError(
        MedusaError.Types.INVALID_DATA,
        "odeme.transfer_details_missing",
        "Choose a bank account (bank_id) and enter the payer's full name (customer_name) before completing the order."
      )
    }
    const bank = await this.banks_.find(data.bank_id).catch((e) => {
      throw toMedusaError(e, "list the bank accounts", MedusaError.Types.PAYMENT_AUTHORIZATION_ERROR, this.logger_)
    })
    if (!bank) {
      throw odemeError(
        MedusaError.Types.INVALID_DATA,
        "odeme.bank_unknown",
        `Unknown bank_id ${data.bank_id}: choose one of the listed bank accounts.`
      )
    }
    if (data.sandbox_result && this.options_.mode !== "sandbox") {
      throw odemeError(MedusaError.Types.INVALID_DATA, "odeme.sandbox_only", "sandbox_result is only accepted in sandbox mode.")
    }

    if (!data.client_ip) {
      // The service needs the customer's address (spec §4.5); a made-up one would misinform its fraud checks.
      throw odemeError(
        MedusaError.Types.INVALID_DATA,
        "odeme.invalid_session_data",
        "The payment session has no customer address (client_ip): start the bank transfer again from the storefront."
      )
    }
    const claimed = await this.odeme.claimTransferCreation(data.session_id, {
      payer_name: data.customer_name,
      bank_id: bank.bank_id,
      bank_name: bank.bank_name,
      account_holder: bank.account_holder,
      iban: bank.iban,
    })
    if (!claimed) return this.afterLostClaim(data.session_id, input.data ?? {})

    let created: { payment_id: string }
    try {
      created = await this.client_.createBankTransfer({
        bank_id: bank.bank_id,
        amount: row.amount,
        currency: row.currency as "TRY" | "USD" | "EUR",
        order_id: serviceOrderId(row),
        customer_name: data.customer_name,
        client_ip: data.client_ip,
        customer_email: data.customer_email,
        customer_phone: data.customer_phone,
        sandbox_result: this.options_.mode === "sandbox" ? data.sandbox_result : undefined,
      })
    } catch (err) {
      const summary = err instanceof OdemeApiError ? `${err.kind}${err.status ? ` ${err.status}` : ""}` : "error"
      if (isRefusal(err)) {
        // The service read the request and refused it: nothing was created, a retry may create.
        await this.odeme.endTransferCreation(data.session_id, { creation_state: "failed", last_result: summary })
        throw toMedusaError(err, "create the bank transfer", MedusaError.Types.PAYMENT_AUTHORIZATION_ERROR, this.logger_)
      }
      // A timeout, a 5xx or an unreadable answer: the transfer may exist. Never create again for this session.
      await this.odeme.endTransferCreation(data.session_id, { creation_state: "unknown", last_result: summary })
      await this.apply(data.session_id, { kind: "creation_unknown", detail: summary })
      this.logger_.error(
        `medusa-payment-odeme: creating the transfer for ${data.session_id} had no readable answer (${summary}); it is not retried to avoid a duplicate transfer`
      )
      throw creationUnknownError()
    }

    // The uuid is kept with the claim's end, so a failure of the next step cannot lose the transfer.
    await this.odeme.endTransferCreation(data.session_id, { creation_state: "created", service_uuid: created.payment_id, last_result: "created" })
    const { payment } = await this.apply(data.session_id, { kind: "created", uuid: created.payment_id })
    return this.authorizeOutcome(await this.refresh(payment, input.data ?? {}))
  }

  /**
   * A transfer the service rejected is reported as a payment authorization
   * error, so Medusa answers the storefront's cart completion with
   * `{ type: "cart", error }` and a message it can show.
   */
  private authorizeOutcome(out: AuthorizePaymentOutput): AuthorizePaymentOutput {
    const state = out.data?.state as OdemeState | undefined
    if (state === "failed" || state === "expired" || state === "canceled") {
      // Medusa Admin's "Check status" shows this too: each says what happened, not that the service refused.
      throw odemeError(
        MedusaError.Types.PAYMENT_AUTHORIZATION_ERROR,
        state === "failed" ? "odeme.payment_failed" : "odeme.payment_canceled",
        `${ENDED_TRANSFER[state]} Please choose another payment method or start the payment again.`
      )
    }
    return out
  }

  protected async currentState(raw: Data): Promise<{ state: OdemeState; data: Data }> {
    const sessionId = this.sessionIdOf(raw)
    const row = await this.odeme.getPayment(sessionId)
    if (!row) return { state: "pending", data: raw }
    if (!row.service_uuid) return { state: row.status, data: { ...raw, state: row.status } }
    const out = await this.refresh(row, raw, MedusaError.Types.UNEXPECTED_STATE)
    return { state: (out.data?.state as OdemeState) ?? row.status, data: out.data ?? raw }
  }

  /**
   * Asks the uuid endpoint (spec §4.6, the service's own record, read with
   * the secret key) and hands its answer to the transition function, like
   * every other path that learns something about a payment.
   */
  private async refresh(
    row: OdemePaymentRow,
    raw: Data,
    failureType: string = MedusaError.Types.PAYMENT_AUTHORIZATION_ERROR
  ): Promise<AuthorizePaymentOutput> {
    let record: TransferRecord
    try {
      record = await this.client_.getTransferByUuid(row.service_uuid!)
    } catch (err) {
      throw toMedusaError(err, "read the bank transfer status", failureType, this.logger_)
    }
    await this.odeme.updatePaymentDetails(row.session_id, {
      ...transferDetails(record, row),
      charged_amount: String(record.br_price),
      charged_currency: record.br_currency,
    })
    const { payment } = await this.apply(row.session_id, transferAnswer(record, row))
    return { status: toSessionStatus(payment.status), data: this.publicData(raw, payment, record.sale_status) }
  }

  private publicData(raw: Data, row: OdemePaymentRow, saleStatus: number): Data {
    return {
      ...raw,
      ...this.ownership(row.session_id),
      provider: PaymentProviderKeys.TRANSFER,
      reference: row.session_id,
      shopper_reference: row.reference,
      payment_id: row.service_uuid,
      tracking_no: row.tracking_no,
      bank_name: row.bank_name,
      account_holder: row.account_holder,
      iban: row.iban,
      iban_display: row.iban ? formatIban(row.iban) : null,
      payer_name: row.payer_name,
      amount: row.amount,
      currency: row.currency,
      sale_status: saleStatus,
      state: row.status,
      // The shopper's deadline, the same instant the poller lets an unpaid transfer expire at.
      expires_at: transferExpiresAt(transferCreatedAt(row), this.options_.transfer.expiryHours).toISOString(),
    }
  }

  /** Another call is creating (or created) this session's transfer: wait for it, never create a second. */
  private async afterLostClaim(sessionId: string, raw: Data): Promise<AuthorizePaymentOutput> {
    const deadline = Date.now() + Math.max(CREATION_WAIT_MS, this.options_.httpTimeoutMs + 2_000)
    for (;;) {
      const row = await this.odeme.getPayment(sessionId)
      if (row?.service_uuid) return this.authorizeOutcome(await this.refresh(row, raw))
      if (row?.creation_state === "unknown") throw creationUnknownError()
      if (
        row?.creation_state === "creating" &&
        row.creation_started_at &&
        Date.now() - new Date(row.creation_started_at).getTime() > this.staleClaimMs()
      ) {
        // The process that claimed the creation died before it recorded an answer: the transfer may exist.
        if (await this.odeme.endTransferCreation(sessionId, { creation_state: "unknown", last_result: "claimant gone" })) {
          await this.apply(sessionId, { kind: "creation_unknown", detail: "the creating process stopped before an answer was recorded" })
        }
        throw creationUnknownError()
      }
      if (!row || row.creation_state !== "creating" || Date.now() > deadline) {
        throw odemeError(
          MedusaError.Types.PAYMENT_AUTHORIZATION_ERROR,
          "odeme.payment_in_progress",
          "The bank transfer for this payment is being created by another request; try again in a moment."
        )
      }
      await new Promise((r) => setTimeout(r, 150))
    }
  }

  /** Longer than any creation call can take (one timeout, never retried), with room to record its answer. */
  private staleClaimMs(): number {
    return this.options_.httpTimeoutMs + 30_000
  }
}

/** Only an HTTP 4xx refusal (not a 408 timeout) or a request that never left means the service created nothing. */
function isRefusal(err: unknown): boolean {
  if (!(err instanceof OdemeApiError)) return false
  if (err.kind === "http") return !!err.status && err.status >= 400 && err.status < 500 && err.status !== 408
  // The client marks a create (never retry-safe) retryable only when the request never left.
  return err.kind === "network" && err.retryable
}

function creationUnknownError(): MedusaError {
  return odemeError(
    MedusaError.Types.PAYMENT_AUTHORIZATION_ERROR,
    "odeme.creation_unknown",
    "The payment service did not answer clearly while creating the bank transfer; it may already exist, so it is not created again. Please start the payment again."
  )
}

/** Why a bank transfer can no longer be paid, as its state says. */
const ENDED_TRANSFER = {
  failed: "The bank transfer was rejected: the payment service reports that it failed.",
  expired: "The bank transfer did not arrive in time and is no longer awaited.",
  canceled: "The bank transfer was canceled in the store (the cart changed, another payment was chosen or the order was canceled).",
} as const
