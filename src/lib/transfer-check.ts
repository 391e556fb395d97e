import type { TransferRecord } from "../client"
import type { OdemePaymentRow } from "../modules/odeme/service"

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
    iban: record.br_iban ? record.br_iban.replace(/\s+/g, "") : row.iban,
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
