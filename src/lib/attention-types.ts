/**
 * The "needs attention" contract, shared by the server and the Admin bundle
 * (which imports it as types only; what it imports is the stored words, with no imports of their own).
 */
import { MEDUSA_REFUSALS, REVIEW_CODES } from "../modules/odeme/models/states"

/** What kind of thing needs a person (each with its own actions; src/lib/attention.ts). */
export const ATTENTION_KINDS = [
  "review",
  "duplicate_charge",
  "unknown_outcome",
  "dead_notification",
  /** A refund Medusa recorded: pay it back in the merchant panel, then acknowledge. */
  "refund_due",
  /** The customer came back saying "paid" and no notification confirmed it: check the webhook URL. */
  "unconfirmed_return",
  /** Settling in Medusa (settle_failing) or asking the service (checks_failing) keeps failing. */
  "stuck",
  /**
   * Stored notifications are not being processed (notifications_unprocessed: the worker or its Redis), a
   * session's are held back by copies using its verify budget (notifications_held_back), or the poller does
   * not run (poller_not_running). Computed when read; each goes by itself once processing resumes.
   */
  "processing",
] as const
export type AttentionKind = (typeof ATTENTION_KINDS)[number]

/**
 * Why an item is listed, as a code the Admin translates (`odeme.attention.codes.<code>` and `.todo.<code>`,
 * in both languages; a unit test holds the three lists equal). Computed when read, never stored: a payment's
 * `review_code`, what Medusa refused it (kept in its metadata), or the attention query's own.
 */
export const ATTENTION_CODES = [
  ...REVIEW_CODES,
  ...MEDUSA_REFUSALS,
  // the attention query's own
  "creation_unknown", // a payment whose status is `unknown`
  "duplicate_charge",
  "notification_dead",
  "success_unrecorded",
  "refund_due",
  "unconfirmed_return",
  "unconfirmed_return_unprocessed",
  "unconfirmed_return_no_webhook",
  "settle_failing",
  "checks_failing",
  "notifications_unprocessed",
  "notifications_held_back",
  "poller_not_running",
] as const
export type AttentionCode = (typeof ATTENTION_CODES)[number]

export type AttentionAction = "check" | "retry" | "acknowledge" | "resolve"

/** One thing a person must look at, with what they can do about it (Admin's "needs attention"). */
export interface AttentionItem {
  id: string
  kind: AttentionKind
  /** Why (ATTENTION_CODES). */
  code: AttentionCode
  session_id: string | null
  order_id: string | null
  cart_id: string | null
  provider: string | null
  amount: string | null
  currency: string | null
  service_uuids: string[]
  notification_id: string | null
  charge_id: string | null
  refund_id: string | null
  /** Technical detail for the merchant's logs; not translated. */
  detail: string | null
  since: string
  /** How many notifications a `processing` item stands for; null for the others. */
  count: number | null
  actions: AttentionAction[]
  /** Whose payment it is, from the cart or order it pays (the "needs attention" list; not on an order's own items). */
  customer?: AttentionCustomer | null
}

/** The name and e-mail the customer gave Medusa (either may be missing). */
export interface AttentionCustomer {
  name: string | null
  email: string | null
}
