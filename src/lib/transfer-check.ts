import type { TransferRecord } from "../client"
import type { PaymentState } from "../modules/odeme/models/states"
import type { OdemePaymentRow } from "../modules/odeme/service"
import type { CheckCode } from "./check-code"
import type { ServiceAnswer } from "./payment-state/transitions"

/*
 * When an API transfer is asked about again, when it expires and what its
 * record tells: the poller's and the providers' shared arithmetic, without
 * the calls (those are in src/workflows/poller/check-payment.ts).
 */

/**
 * Milliseconds until the next check of a pending transfer: FAST transfers
 * usually confirm within minutes, so young transfers are checked often and
 * old ones rarely.
 */
export function nextCheckDelayMs(createdAt: Date, now = Date.now()): number {
  const ageMin = (now - new Date(createdAt).getTime()) / 60_000
  if (ageMin < 10) return 60_000
  if (ageMin < 60) return 5 * 60_000
  if (ageMin < 24 * 60) return 15 * 60_000
  return 60 * 60_000
}

/** What the transfer record tells about the transfer (bank, IBAN, tracking number): details, never the state. */
export function transferDetails(record: TransferRecord, row: OdemePaymentRow) {
  return {
    tracking_no: record.br_tracking_no || row.tracking_no,
    bank_name: record.br_bank_name || row.bank_name,
    iban: record.br_iban ? record.br_iban.replace(/\s/g, "") : row.iban,
    payer_name: record.br_name || row.payer_name,
    last_result: `sale_status ${record.sale_status}`,
    last_checked_at: new Date(),
  }
}

/** When the service's transfer was created: the creation claim's start (the session row may be days older). */
export function transferCreatedAt(row: Pick<OdemePaymentRow, "creation_started_at" | "created_at">): Date {
  return new Date(row.creation_started_at ?? row.created_at)
}

/**
 * When an unpaid API transfer expires (`transfer.expiryHours` after its creation): the poller
 * applies it, and the shopper is shown it as the deadline (session data `expires_at`).
 */
export function transferExpiresAt(createdAt: Date | string, expiryHours: number): Date {
  return new Date(new Date(createdAt).getTime() + expiryHours * 3_600_000)
}

/** Why an unpaid transfer expired, in the check's detail and the expired answer. */
export function expiryText(expiryHours: number): string {
  return `Transfer not received within ${expiryHours} hours`
}

/** The uuid endpoint's answer, made `expired` when a transfer still awaited is past its deadline. */
export function answerWithExpiry(answer: ServiceAnswer, status: PaymentState, now: number, expiresAt: number, expiryHours: number): ServiceAnswer {
  return answer.kind === "pending" && status === "awaiting_transfer" && now >= expiresAt
    ? { kind: "expired", detail: expiryText(expiryHours) }
    : answer
}

/**
 * A check that left the row as it was and will ask again: the poller writes
 * its details with a page of others instead of on its own. A canceled
 * transfer is asked about until its deadline (the customer may still pay it).
 */
export function unchangedAndAskedAgain(answer: ServiceAnswer["kind"], status: PaymentState, now: number, expiresAt: number): boolean {
  return answer === "pending" && (status !== "canceled" || now < expiresAt)
}

/**
 * After a check's answer was applied: whether the transfer is asked about
 * again, and whether its order may be left waiting on nothing. A canceled
 * transfer is asked about until it expires (a late success to give back);
 * one whose session was replaced on its order and that can no longer be
 * paid (failed, or past its deadline) leaves that order to be ended, since
 * nothing else ends it.
 */
export function afterTransferCheck(
  status: PaymentState,
  answer: ServiceAnswer["kind"],
  now: number,
  expiresAt: number
): { asksAgain: boolean; mayEndOrder: boolean } {
  const asksAgain = status === "awaiting_transfer" || status === "unknown" || (status === "canceled" && answer === "pending" && now < expiresAt)
  return { asksAgain, mayEndOrder: status === "canceled" && !asksAgain && (answer === "pending" || answer === "failed") }
}

/** What a check reports once its answer was applied. */
export function transferCheckVerdict(
  answer: ServiceAnswer["kind"],
  status: PaymentState,
  saleStatus: TransferRecord["sale_status"],
  expiryHours: number
): { code: CheckCode; detail: string } {
  if (answer === "expired") return { code: "expired", detail: expiryText(expiryHours) }
  if (status === "awaiting_transfer") return { code: "still_waiting", detail: "still waiting for the transfer" }
  return { code: "service_status", detail: `service reports sale_status ${saleStatus}` }
}
