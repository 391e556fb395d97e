import type { InferTypeOf } from "@medusajs/framework/types"
import type { AttentionCode, AttentionKind } from "../../lib/attention-types"
import OdemeCharge from "./models/odeme-charge"
import OdemeNotification from "./models/odeme-notification"
import OdemePayment from "./models/odeme-payment"
import OdemeRefund from "./models/odeme-refund"
import type { ChargeRole, NotificationOutcome, NotificationSource, PaymentState, ReviewCode } from "./models/states"

export type OdemePaymentRow = InferTypeOf<typeof OdemePayment>
export type OdemeNotificationRow = Omit<InferTypeOf<typeof OdemeNotification>, "payload" | "verify_result"> & {
  payload: Record<string, unknown>
  verify_result: Record<string, unknown> | null
}
export type OdemeChargeRow = InferTypeOf<typeof OdemeCharge>
export type OdemeRefundRow = InferTypeOf<typeof OdemeRefund>

/** What the webhook route needs of a stored row: the insert returns nothing more. */
export type StoredNotification = Pick<OdemeNotificationRow, "id" | "state" | "attempts">

/** Columns that record what happened; never the state (see `compareAndSetState`). */
export type PaymentDetails = Partial<
  Pick<
    OdemePaymentRow,
    | "flow"
    | "service_uuid"
    | "tracking_no"
    | "payer_name"
    | "bank_id"
    | "bank_name"
    | "account_holder"
    | "iban"
    | "charged_amount"
    | "charged_currency"
    | "next_check_at"
    | "check_attempts"
    | "check_failures"
    | "last_checked_at"
    | "last_result"
    | "cart_id"
    | "order_id"
    | "metadata"
  >
>

export interface StateChange extends PaymentDetails {
  status: PaymentState
  review_code: ReviewCode | null
  review_reason: string | null
}

/** How a processing attempt of a notification ended. */
export type NotificationSettlement =
  | { state: "done"; outcome: NotificationOutcome; verify_result?: unknown; last_error?: string | null }
  | { state: "retry"; outcome: NotificationOutcome; next_attempt_at: Date; last_error: string; verify_result?: unknown }
  | { state: "dead"; outcome: NotificationOutcome; last_error: string; verify_result?: unknown }

export type { AttentionKind }

export interface AttentionRow {
  id: string
  kind: AttentionKind
  code: AttentionCode
  session_id: string | null
  provider: string | null
  amount: string | null
  currency: string | null
  order_id: string | null
  cart_id: string | null
  service_uuid: string | null
  notification_id: string | null
  charge_id: string | null
  refund_id: string | null
  detail: string | null
  since: Date
  /** How many notifications the item stands for (a `processing` item); null for the others. */
  count: number | null
}

/** What a check learned about a transfer that did not change its state (the poller writes these a page at a time). */
export interface CheckedTransfer {
  session_id: string
  /** The version the check read: a row another writer moved meanwhile is left alone (its lease runs out and it is checked again). */
  version: number
  details: PaymentDetails
}

/** A notification to store (see `storeNotification`). */
export interface NotificationInput {
  source: NotificationSource
  dedupe_key: string
  session_id: string
  service_uuid: string | null
  status: string | null
  type: string | null
  payload: Record<string, unknown>
  raw_body: string | null
  /** The delivery proved who sent it (see OdemeNotification.trusted). */
  trusted?: boolean
  state?: "received" | "done"
  outcome?: string | null
}

/** The answer for one stored notification; null: the session is none of this store's payments. */
export type StoreResult = { row: StoredNotification; duplicate: boolean } | null

export type ChargeInput = Pick<OdemeChargeRow, "session_id" | "service_uuid" | "status"> &
  Partial<Pick<OdemeChargeRow, "type" | "amount" | "currency" | "detail">> & { role?: ChargeRole; verified: boolean }

export interface RefundInput {
  session_id: string
  medusa_refund_id: string | null
  amount: string
  currency: string | null
}

/** What Medusa would not do for a payment, listed in "needs attention" until it is done (noteMedusaRefusal). */
export type { MedusaRefusal } from "./models/states"
