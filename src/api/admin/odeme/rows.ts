/**
 * Minimal views of the plugin's rows as the admin routes read them (model
 * columns, picked by name: nothing here ever holds the API key).
 */

import type { KeyMode, NotificationOutcome, PaymentFlow, ReviewCode } from "../../../modules/odeme/models/states"

/** An `odeme_payment` row. */
export interface PaymentLike {
  session_id: string
  provider: string
  flow: PaymentFlow | null
  mode: KeyMode
  amount: string
  currency: string
  status: string
  service_uuid: string | null
  tracking_no: string | null
  payer_name: string | null
  bank_name: string | null
  account_holder: string | null
  iban: string | null
  charged_amount: string | null
  charged_currency: string | null
  next_check_at: Date | string | null
  check_attempts: number | null
  last_checked_at: Date | string | null
  last_result: string | null
  review_reason: string | null
  review_code?: ReviewCode | null
  order_id?: string | null
  cart_id?: string | null
  created_at?: Date | string | null
}

/** An `odeme_notification` row. */
export interface NotificationLike {
  id: string
  source: string
  session_id: string | null
  service_uuid: string | null
  status: string | null
  type: string | null
  payload: unknown
  state: string
  attempts: number | null
  next_attempt_at?: Date | string | null
  last_error: string | null
  verify_result: unknown
  outcome: string | null
  duplicate_count: number | null
  processed_at: Date | string | null
  created_at: Date | string | null
  updated_at?: Date | string | null
}

/** A row's date as ISO text; the driver may hand a Date, a string or nothing. */
export function iso(v: Date | string | null | undefined): string | null {
  if (v === null || v === undefined || v === "") return null
  const d = v instanceof Date ? v : new Date(v)
  return Number.isNaN(d.getTime()) ? null : d.toISOString()
}
