import type { AttentionCode, AttentionItem } from "../../../lib/attention-types"
import type { PaymentFlow, ReviewCode } from "../../../modules/odeme/models/states"
import { formatIban } from "../../../lib/bank-accounts"
import { serviceOrderId } from "../../../lib/order-reference"
import type { OdemeState } from "../../../lib/status"
import { lastCheckOf, type LastCheck } from "./last-check"
import { iso, type NotificationLike, type PaymentLike } from "./rows"
import { paymentTimeline, type TimelineEvent } from "./timeline"

/**
 * The admin API's answers, and how the plugin's rows become them (the order
 * widget and the Admin pages read these shapes; `src/admin` imports them as
 * types only).
 *
 * The Admin translates everything it shows, so these shapes carry codes
 * (`state`, `flow`, timeline `code`, attention `kind`/`code`), never
 * sentences; technical details (the service's messages, errors) travel in
 * `detail` fields and are shown as they are.
 */

export type { TimelineEvent, TimelineKind } from "./timeline"
export type { LastCheck, LastCheckCode } from "./last-check"

/** The "needs attention" contract (GET /admin/odeme/attention, and per payment of an order): one definition, in lib. */
export type { AttentionAction, AttentionCustomer, AttentionItem, AttentionKind } from "../../../lib/attention-types"

export interface AttentionCounts {
  review: number
  duplicate_charge: number
  unknown_outcome: number
  dead_notification: number
  total: number
}

export interface AttentionList {
  items: AttentionItem[]
  count: number
  counts: AttentionCounts
}

/** One payment the service reported for a session (a session may see several). */
export interface AdminCharge {
  id: string
  service_uuid: string
  status: string
  role: "primary" | "duplicate" | "late" | "rejected" | "none" | string
  amount: string | null
  currency: string | null
  type: string | null
  verified_at: string | null
  acknowledged_at: string | null
}

export interface AdminOdemePayment {
  session_id: string
  /** What the service knows the payment by (its `order_id`) and the shopper may quote: the short reference, or for a session from before references its id. */
  reference: string
  provider_id: string
  provider: string
  /** Null for a checkout session before the customer chose. */
  flow: PaymentFlow | null
  sandbox: boolean
  mode: string
  state: OdemeState
  /** Why the payment is in review, as stored (a code, or a technical text from older rows). */
  review_reason: string | null
  /** Why the payment needs a look, as a code the Admin translates (the attention codes): its review code, or for `unknown` its status. */
  review_code: ReviewCode | "creation_unknown" | null
  medusa_session_status: string | null
  amount: string
  currency: string
  charged_amount: string | null
  charged_currency: string | null
  service_uuid: string | null
  tracking_no: string | null
  payer_name: string | null
  bank_name: string | null
  account_holder: string | null
  iban_display: string | null
  created_at: string | null
  last_checked_at: string | null
  next_check_at: string | null
  check_attempts: number
  /** Technical: the last status check's result as recorded. */
  last_result: string | null
  /** The last status check as a code the Admin translates (null before the first). */
  last_check: LastCheck | null
  timeline: TimelineEvent[]
  /** Every service payment of the session (added by the order payment route). */
  charges?: AdminCharge[]
  /** What needs a person for this payment (added by the order payment route). */
  attention?: AttentionItem[]
}

/** One payment collection of the order: the checkout's, or a balance (order edit, exchange, claim) paid through a payment link. */
export interface AdminOrderCollection {
  id: string
  kind: "original" | "balance"
  /** Medusa's payment collection status (not_paid, awaiting, authorized, completed, …): a code the Admin translates. */
  status: string
  amount: string | null
  currency: string | null
  session_ids: string[]
}

export function presentPayment(
  p: PaymentLike,
  extra: { provider_id?: string; medusa_session_status?: string | null; notifications?: NotificationLike[] } = {}
): AdminOdemePayment {
  return {
    session_id: p.session_id,
    reference: serviceOrderId(p),
    provider_id: extra.provider_id ?? `pp_${p.provider}_odeme`,
    provider: p.provider,
    flow: p.flow,
    sandbox: p.mode === "sandbox",
    mode: p.mode,
    state: p.status as OdemeState,
    review_reason: p.review_reason ?? null,
    review_code: p.review_code ?? (p.status === "unknown" ? "creation_unknown" : null),
    medusa_session_status: extra.medusa_session_status ?? null,
    amount: p.amount,
    currency: p.currency,
    charged_amount: p.charged_amount ?? null,
    charged_currency: p.charged_currency ?? null,
    service_uuid: p.service_uuid ?? null,
    tracking_no: p.tracking_no ?? null,
    payer_name: p.payer_name ?? null,
    bank_name: p.bank_name ?? null,
    account_holder: p.account_holder ?? null,
    iban_display: p.iban ? formatIban(p.iban) : null,
    created_at: iso(p.created_at),
    last_checked_at: iso(p.last_checked_at),
    next_check_at: iso(p.next_check_at),
    check_attempts: Number(p.check_attempts ?? 0),
    last_result: p.last_result ?? null,
    last_check: lastCheckOf(p.last_result),
    timeline: paymentTimeline(p, extra.notifications ?? []),
  }
}

export function presentNotification(n: NotificationLike & { dedupe_key?: string }) {
  return {
    id: n.id,
    source: n.source,
    session_id: n.session_id,
    service_uuid: n.service_uuid,
    status: n.status,
    type: n.type,
    state: n.state,
    attempts: Number(n.attempts ?? 0),
    next_attempt_at: iso(n.next_attempt_at),
    last_error: n.last_error,
    outcome: n.outcome,
    duplicate_count: Number(n.duplicate_count ?? 0),
    verify_result: n.verify_result ?? null,
    payload: n.payload ?? null,
    processed_at: iso(n.processed_at),
    created_at: iso(n.created_at),
    updated_at: iso(n.updated_at),
  }
}
