import type { BankAccount, BankGroup } from "./fixtures"

/**
 * What the emulator sends, as its own types (written from the spec's
 * response tables, not taken from the plugin's client). Route handlers build
 * their JSON through these so a field cannot go missing silently.
 */

/** Every `/api` refusal (spec §7 shows no error format; this is the emulator's). */
export interface ErrorAnswer {
  success: false
  message: string
}

/** §4.3 */
export interface BankGroupListAnswer {
  result: BankGroup[]
}

/** §4.4 (§2.4 fields only). */
export interface BankListAnswer {
  result: Array<Omit<BankAccount, "group_id">>
}

/** §4.5 */
export interface CreateTransferAnswer {
  message: "successful"
  payment_id: string
  order_id: string
}

/** §2.5, exactly the documented fields. */
export interface TransferRecord {
  br_tracking_no: string
  br_name: string
  br_price: number
  br_currency: string
  br_bank_name: string
  br_iban: string
  sale_status: 0 | 1 | 2
  sale_date: number
}

/** §4.6 (control and uuid endpoints). */
export interface TransferRecordAnswer {
  result: TransferRecord
}

export type VerifyMode = "api_cc_pos" | "quick_checkout_fallback" | "sandbox"

/** §4.8; `message` is the emulator's addition when the payment is unknown or the order differs. */
export interface VerifyAnswer {
  success: true
  is_valid: boolean
  payment_confirmed: boolean
  official_status: string
  status_match: boolean
  hash_match: boolean
  order_id: string
  uuid: string
  mode: VerifyMode
  message?: string
}

/** §4.7: only `redirect_url` is documented; the rest is the emulator's (§2.7 record fields). */
export interface CardAnswer {
  status: "pending"
  redirect_url: string
  uuid: string
  order_id: string
  transaction_id: string
}

/** §4.9 (shape not shown in the spec: the emulator's). */
export interface SaleInfoAnswer {
  success: true
  result: {
    uuid: string
    order_id: string
    transaction_id: string
    status: string
    type: "credit_card" | "bank_transfer"
    amount: number
    currency: string
    description: string | null
    created_at: string
    completed_at: string | null
  }
}
