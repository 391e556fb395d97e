import { formatAmount, type AmountInput } from "./amount"
import { ODEME_ENDPOINTS } from "./endpoints"
import { requirePathSegment, requireString } from "./input"
import { CreateBankTransferResultSchema, TransferRecordResponseSchema, type CreateBankTransferResult, type TransferRecord } from "./schemas"
import type { OdemeTransport } from "./transport"

type Caller = Pick<OdemeTransport, "call">

/** Anything `formatAmount` accepts that is not a plain number/string (Medusa BigNumber, raw `{ value, precision }`). */
export type BigNumberLike = Exclude<AmountInput, number | string | bigint>

export type BankTransferCurrency = "TRY" | "USD" | "EUR"
export const BANK_TRANSFER_CURRENCIES: readonly BankTransferCurrency[] = ["TRY", "USD", "EUR"]

export interface CreateBankTransferInput {
  bank_id: number
  amount: string | number | BigNumberLike
  currency: BankTransferCurrency
  order_id: string
  customer_name: string
  client_ip: string
  customer_email?: string
  customer_phone?: string
  sandbox_result?: "successful" | "pending" | "failed"
}

function createBody(input: CreateBankTransferInput): Record<string, unknown> {
  if (!input || typeof input !== "object") throw new TypeError("createBankTransfer input is required")
  const bankId = Number(input.bank_id)
  if (!Number.isSafeInteger(bankId) || bankId <= 0) throw new TypeError("bank_id must be a positive integer")
  const amount = formatAmount(input.amount as AmountInput)
  if (amount.startsWith("-") || amount === "0.00") throw new TypeError("amount must be greater than zero")
  const currency = requireString(input.currency, "currency").trim().toUpperCase() as BankTransferCurrency
  if (!BANK_TRANSFER_CURRENCIES.includes(currency)) {
    throw new TypeError(`currency must be one of ${BANK_TRANSFER_CURRENCIES.join(", ")}`)
  }
  const body: Record<string, unknown> = {
    bank_id: bankId,
    amount,
    currency,
    order_id: requireString(input.order_id, "order_id"),
    customer_name: requireString(input.customer_name, "customer_name"),
    client_ip: requireString(input.client_ip, "client_ip"),
  }
  if (input.customer_email !== undefined && input.customer_email !== null) body.customer_email = input.customer_email
  if (input.customer_phone !== undefined && input.customer_phone !== null) body.customer_phone = input.customer_phone
  if (input.sandbox_result !== undefined) {
    if (!["successful", "pending", "failed"].includes(input.sandbox_result)) {
      throw new TypeError("sandbox_result must be successful, pending or failed")
    }
    body.sandbox_result = input.sandbox_result
  }
  return body
}

/** §4.5. Never retried: a timeout means the outcome is unknown (`retryable: false`). */
export async function createBankTransfer(t: Caller, input: CreateBankTransferInput): Promise<CreateBankTransferResult> {
  const body = createBody(input)
  const ep = ODEME_ENDPOINTS.createBankTransfer
  return t.call(ep, ep.template, CreateBankTransferResultSchema, body)
}

/**
 * §4.6 control endpoint. Live it expects the tracking number (`br_tracking_no`);
 * use `getTransferByUuid` for the `payment_id` returned on creation.
 */
export async function getTransferByTrackingNo(
  t: Caller,
  trackingNo: string,
  opts: { sandboxResult?: "successful" | "failed" } = {}
): Promise<TransferRecord> {
  const id = requirePathSegment(trackingNo, "trackingNo")
  let path = `/api/pay/bank_transfer/control/${encodeURIComponent(id)}`
  if (opts.sandboxResult !== undefined) {
    if (opts.sandboxResult !== "successful" && opts.sandboxResult !== "failed") {
      throw new TypeError("sandboxResult must be successful or failed")
    }
    path += `?sandbox_result=${opts.sandboxResult}`
  }
  return (await t.call(ODEME_ENDPOINTS.getTransferByTrackingNo, path, TransferRecordResponseSchema)).result
}

/** §4.6 uuid endpoint. */
export async function getTransferByUuid(t: Caller, uuid: string): Promise<TransferRecord> {
  const path = `/api/pay/bank_transfer/uuid/${encodeURIComponent(requirePathSegment(uuid, "uuid"))}`
  return (await t.call(ODEME_ENDPOINTS.getTransferByUuid, path, TransferRecordResponseSchema)).result
}
