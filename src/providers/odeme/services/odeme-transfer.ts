import { MedusaError } from "@medusajs/framework/utils"
import type {
  AuthorizePaymentInput,
  AuthorizePaymentOutput,
  InitiatePaymentInput,
  InitiatePaymentOutput,
} from "@medusajs/framework/types"
import { OdemeApiError, type TransferRecord } from "../../../client"
import { checkAmount } from "../../../lib/amount-rules"
import { formatIban } from "../../../lib/bank-directory"
import { moneyMismatch } from "../../../lib/judge"
import { toMedusaError } from "../../../lib/medusa-errors"
import { TRANSFER_CURRENCIES } from "../../../lib/options"
import type { OdemePaymentRow } from "../../../lib/payment-store"
import { stateFromSaleStatus, toSessionStatus, type OdemeState } from "../../../lib/status"
import { OdemeBase } from "../core/odeme-base"
import { PaymentProviderKeys } from "../types"
import { parseTransferSessionData, type TransferSessionData } from "../utils/transfer-session-data"

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
    const data = this.parseData(input.data)
    const { amount, currency } = checkAmount(input, TRANSFER_CURRENCIES, this.options_, "Bank transfer")
    const banks = await this.banks_.accounts().catch((e) => {
      throw toMedusaError(e, "list the bank accounts")
    })
    if (data.bank_id !== undefined && !banks.some((b) => b.bank_id === data.bank_id)) {
      throw new MedusaError(
        MedusaError.Types.INVALID_DATA,
        `Unknown bank_id ${data.bank_id}: choose one of the listed bank accounts (${banks.map((b) => b.bank_id).join(", ")}).`
      )
    }
    await this.store.upsertInitiated({
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
        provider: PaymentProviderKeys.TRANSFER,
        reference: data.session_id,
        mode: this.options_.mode,
        amount,
        currency,
        banks,
        state: "pending" satisfies OdemeState,
      },
    }
  }

  async authorizePayment(input: AuthorizePaymentInput): Promise<AuthorizePaymentOutput> {
    const data = this.parseData(input.data)
    const row = await this.store.get(data.session_id)
    if (!row) {
      throw new MedusaError(
        MedusaError.Types.NOT_FOUND,
        `Payment session ${data.session_id} is unknown to medusa-payment-odeme; create a new payment session.`
      )
    }
    if (row.service_uuid) return this.authorizeOutcome(await this.refresh(row, input.data ?? {}))
    if (row.status === "canceled") {
      throw new MedusaError(MedusaError.Types.NOT_ALLOWED, "This payment was canceled; create a new payment session.")
    }
    if (data.bank_id === undefined || !data.customer_name) {
      throw new MedusaError(
        MedusaError.Types.INVALID_DATA,
        "Choose a bank account (bank_id) and enter the payer's full name (customer_name) before completing the order."
      )
    }
    const bank = await this.banks_.find(data.bank_id).catch((e) => {
      throw toMedusaError(e, "list the bank accounts", MedusaError.Types.PAYMENT_AUTHORIZATION_ERROR)
    })
    if (!bank) {
      throw new MedusaError(MedusaError.Types.INVALID_DATA, `Unknown bank_id ${data.bank_id}: choose one of the listed bank accounts.`)
    }
    if (data.sandbox_result && this.options_.mode !== "sandbox") {
      throw new MedusaError(MedusaError.Types.INVALID_DATA, "sandbox_result is only accepted in sandbox mode.")
    }

    const claimed = await this.store.claimCreation(data.session_id, {
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
        order_id: data.session_id,
        customer_name: data.customer_name,
        client_ip: data.client_ip || "127.0.0.1",
        customer_email: data.customer_email,
        customer_phone: data.customer_phone,
        sandbox_result: this.options_.mode === "sandbox" ? data.sandbox_result : undefined,
      })
    } catch (err) {
      // An HTTP answer means the service refused (nothing created): a retry may create.
      // A timeout or broken connection leaves the outcome unknown: never create again.
      const definitive = err instanceof OdemeApiError && (err.kind === "http" || (err.kind === "network" && err.retryable))
      await this.store.update(data.session_id, {
        creation_state: definitive ? "failed" : "unknown",
        last_result: err instanceof OdemeApiError ? `${err.kind}${err.status ? ` ${err.status}` : ""}` : "error",
        ...(definitive ? {} : { status: "review" as const, review_reason: "Transfer creation timed out: it may exist at the service" }),
      })
      if (!definitive) {
        this.logger_.error(
          `medusa-payment-odeme: creating the transfer for ${data.session_id} had no answer; it is not retried to avoid a duplicate transfer`
        )
        throw new MedusaError(
          MedusaError.Types.PAYMENT_AUTHORIZATION_ERROR,
          "The payment service did not answer while creating the bank transfer. To avoid a duplicate transfer it is not retried: please start the payment again."
        )
      }
      throw toMedusaError(err, "create the bank transfer", MedusaError.Types.PAYMENT_AUTHORIZATION_ERROR)
    }

    const saved = await this.store.update(data.session_id, {
      creation_state: "created",
      service_uuid: created.payment_id,
      status: "awaiting_transfer",
      next_check_at: new Date(Date.now() + 60_000),
    })
    return this.authorizeOutcome(await this.refresh(saved ?? row, input.data ?? {}))
  }

  /**
   * A transfer the service rejected is reported as a payment authorization
   * error, so Medusa answers the storefront's cart completion with
   * `{ type: "cart", error }` and a message it can show.
   */
  private authorizeOutcome(out: AuthorizePaymentOutput): AuthorizePaymentOutput {
    const state = out.data?.state as OdemeState | undefined
    if (state === "failed" || state === "expired" || state === "canceled") {
      throw new MedusaError(
        MedusaError.Types.PAYMENT_AUTHORIZATION_ERROR,
        `The bank transfer was rejected by the payment service (${state}). Please choose another payment method or start the payment again.`
      )
    }
    return out
  }

  protected async currentState(raw: Data): Promise<{ state: OdemeState; data: Data }> {
    const sessionId = this.sessionIdOf(raw)
    const row = await this.store.get(sessionId)
    if (!row) return { state: "pending", data: raw }
    if (!row.service_uuid) return { state: row.status, data: { ...raw, state: row.status } }
    const out = await this.refresh(row, raw, MedusaError.Types.UNEXPECTED_STATE)
    return { state: (out.data?.state as OdemeState) ?? row.status, data: out.data ?? raw }
  }

  /** Asks the uuid endpoint (spec §4.6) and maps `sale_status` through the one mapper. */
  private async refresh(
    row: OdemePaymentRow,
    raw: Data,
    failureType: string = MedusaError.Types.PAYMENT_AUTHORIZATION_ERROR
  ): Promise<AuthorizePaymentOutput> {
    let record: TransferRecord
    try {
      record = await this.client_.getTransferByUuid(row.service_uuid!)
    } catch (err) {
      throw toMedusaError(err, "read the bank transfer status", failureType)
    }
    const reported = stateFromSaleStatus(record.sale_status)
    // The same money check as every other path that can pay (judge, poller).
    const mismatch = reported === "paid" ? moneyMismatch(record.br_price, record.br_currency, row) : null
    const state = mismatch ? "review" : this.reconcile(row, reported)
    const updated =
      (await this.store.update(row.session_id, {
        status: state,
        tracking_no: record.br_tracking_no,
        bank_name: record.br_bank_name || row.bank_name,
        iban: record.br_iban ? record.br_iban.replace(/\s+/g, "") : row.iban,
        payer_name: record.br_name || row.payer_name,
        charged_amount: String(record.br_price),
        charged_currency: record.br_currency,
        last_result: `sale_status ${record.sale_status}`,
        last_checked_at: new Date(),
        review_reason:
          state === "review"
            ? row.review_reason ?? (mismatch ? `transfer record: ${mismatch}` : this.reviewReason(row, reported, record))
            : row.review_reason,
      })) ?? row
    return { status: toSessionStatus(state), data: this.publicData(raw, updated, record.sale_status) }
  }

  /**
   * Decides the state from the service's answer and what we know: an approval
   * is only accepted when amount and currency match the session, and never
   * for a payment that was canceled here (it goes to review instead).
   */
  private reconcile(row: OdemePaymentRow, reported: OdemeState): OdemeState {
    switch (row.status) {
      case "review":
        return "review"
      // Verified paid stays paid while the record lags behind; a contradiction is for a person to judge.
      case "paid":
        return reported === "failed" ? "review" : "paid"
      case "canceled":
      case "expired":
        return reported === "paid" ? "review" : row.status
      // Money that arrives after a failure is still the customer's payment.
      case "failed":
        return reported === "paid" ? "paid" : "failed"
      default:
        return reported
    }
  }

  private reviewReason(row: OdemePaymentRow, reported: OdemeState, record: TransferRecord): string {
    return `The service reports ${reported} (sale_status ${record.sale_status}) for a payment that was ${row.status} here`
  }

  private publicData(raw: Data, row: OdemePaymentRow, saleStatus: number): Data {
    return {
      ...raw,
      provider: PaymentProviderKeys.TRANSFER,
      reference: row.session_id,
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
    }
  }

  /** Another call is creating (or created) this session's transfer: wait for it, never create a second. */
  private async afterLostClaim(sessionId: string, raw: Data): Promise<AuthorizePaymentOutput> {
    const deadline = Date.now() + Math.max(CREATION_WAIT_MS, this.options_.httpTimeoutMs + 2_000)
    for (;;) {
      const row = await this.store.get(sessionId)
      if (row?.service_uuid) return this.authorizeOutcome(await this.refresh(row, raw))
      if (!row || row.creation_state !== "creating" || Date.now() > deadline) {
        throw new MedusaError(
          MedusaError.Types.PAYMENT_AUTHORIZATION_ERROR,
          row?.creation_state === "unknown"
            ? "The bank transfer for this payment may already exist; it is not created again. Please start the payment again."
            : "The bank transfer for this payment is being created by another request; try again in a moment."
        )
      }
      await new Promise((r) => setTimeout(r, 150))
    }
  }

  private parseData(data: unknown): TransferSessionData {
    return parseTransferSessionData(data)
  }
}
