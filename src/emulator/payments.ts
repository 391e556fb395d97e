import { randomUUID } from "node:crypto"
import type { EmulatorContext } from "./context"
import { type BankAccount, MESSAGES } from "./fixtures"
import { amountsEqual, formatAmount } from "./money"
import { notificationBody } from "./notifications"
import type { TransferRecord } from "./responses"
import { nextTrackingNo, nextTransactionId } from "./state"
import type { Payment, PaymentStatus, PaymentMethod } from "./types"

/** What a new payment is created from; the rest (uuid, status, dates…) the emulator sets. */
export type NewPayment = Pick<
  Payment,
  | "kind"
  | "method"
  | "mode"
  | "api_id"
  | "order_id"
  | "amount"
  | "currency"
  | "requested_amount"
  | "requested_currency"
  | "description"
  | "success_url"
  | "cancel_url"
  | "product"
>

export function createPayment(ctx: EmulatorContext, init: NewPayment): Payment {
  const now = new Date().toISOString()
  const p: Payment = {
    uuid: randomUUID(),
    transaction_id: nextTransactionId(),
    status: "pending",
    hashes: {},
    created_at: now,
    updated_at: now,
    ...init,
    amount: formatAmount(init.amount),
  }
  ctx.state.payments.set(p.uuid, p)
  ctx.log(`payment ${p.uuid} created (${p.kind}, ${p.mode}, order ${p.order_id}, ${p.amount} ${p.currency})`)
  return p
}

export function attachTransfer(
  p: Payment,
  bank: BankAccount,
  name: string,
  extra: { client_ip?: string; customer_email?: string; customer_phone?: string } = {}
): void {
  p.method = "bank_transfer"
  p.transfer = {
    br_tracking_no: nextTrackingNo(),
    br_name: name,
    br_bank_name: bank.bta_name,
    br_iban: bank.bta_iban,
    bank_id: bank.bta_id,
    sale_date: Math.floor(Date.now() / 1000),
    ...extra,
  }
  p.updated_at = new Date().toISOString()
}

/**
 * Moves a pending payment to a final status, builds its hash and fires the
 * webhook. A payment that is already final is never changed (returns false).
 */
export function finalize(
  ctx: EmulatorContext,
  p: Payment,
  status: Exclude<PaymentStatus, "pending">,
  opts: { method?: PaymentMethod; message?: string } = {}
): boolean {
  if (p.status !== "pending") return false
  if (opts.method && !p.method) p.method = opts.method
  if (!p.method) p.method = "credit_card"
  p.status = status
  if (status === "failed") p.failure_message = opts.message ?? (p.method === "bank_transfer" ? MESSAGES.transferRejected : MESSAGES.cardFailed)
  const now = new Date().toISOString()
  p.updated_at = now
  p.completed_at = now
  ctx.log(`payment ${p.uuid} -> ${status}`)
  ctx.webhooks.notify(p.uuid, notificationBody(ctx, p))
  return true
}

export function saleStatus(p: Payment): 0 | 1 | 2 {
  return p.status === "successful" ? 1 : p.status === "failed" ? 2 : 0
}

/** The §2.5 record, exactly the documented fields. */
export function transferRecord(p: Payment): TransferRecord {
  const t = p.transfer!
  return {
    br_tracking_no: t.br_tracking_no,
    br_name: t.br_name,
    br_price: Number(p.amount),
    br_currency: p.currency,
    br_bank_name: t.br_bank_name,
    br_iban: t.br_iban,
    sale_status: saleStatus(p),
    sale_date: t.sale_date,
  }
}

function normName(s: string): string {
  return s.trim().replace(/\s+/g, " ").toLocaleUpperCase("tr-TR")
}

/** §3.1 automatic FAST matching: oldest pending live transfer with the same sender name and amount. */
export function matchFastTransfer(ctx: EmulatorContext, sender: string, amount: string, currency: string): Payment | undefined {
  const candidates = [...ctx.state.payments.values()].filter(
    (p) =>
      p.mode === "live" &&
      p.status === "pending" &&
      p.transfer !== undefined &&
      p.currency === currency &&
      normName(p.transfer.br_name) === normName(sender) &&
      amountsEqual(p.amount, amount)
  )
  candidates.sort((a, b) => a.created_at.localeCompare(b.created_at))
  return candidates[0]
}
