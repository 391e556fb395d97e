import type { EmulatorContext } from "./context"
import { MESSAGES } from "./fixtures"
import { hashEquals, notificationHash } from "./hash"
import { withQuery } from "./http-util"
import { NOTIFICATION_STATUSES, type NotificationStatus, type Payment, type WebhookStatus } from "./types"
import type { WebhookBody } from "./webhooks"

export function hashFor(ctx: EmulatorContext, p: Payment, status: NotificationStatus): string {
  return notificationHash(ctx.state.config.hashSecret, {
    order_id: p.order_id,
    uuid: p.uuid,
    status,
    amount: p.amount,
    currency: p.currency,
    transaction_id: p.transaction_id,
  })
}

/** The hash of the notification that carries `status`, recorded as issued from now on. */
function issue(ctx: EmulatorContext, p: Payment, status: NotificationStatus): string {
  return (p.hashes[status] ??= hashFor(ctx, p, status))
}

/** §6.2 webhook of a final payment. */
export function notificationBody(ctx: EmulatorContext, p: Payment): WebhookBody {
  if (p.status === "pending") throw new Error("no notification for a pending payment")
  const status: WebhookStatus = p.status
  return {
    order_id: p.order_id,
    hash: issue(ctx, p, status),
    uuid: p.uuid,
    status,
    message: status,
    type: p.method === "bank_transfer" ? "bank_transfer" : "credit_card",
    amount: Number(p.amount),
    currency: p.currency,
    transaction_id: p.transaction_id,
  }
}

/**
 * §6.1 redirect for a final payment; undefined when the payment is pending or
 * has no URL for its outcome (the page then shows the result itself). Its
 * hash is built over `success`/`error`, so it is not the webhook's hash.
 */
export function redirectTarget(ctx: EmulatorContext, p: Payment): string | undefined {
  if (p.status === "pending") return undefined
  const target = p.status === "successful" ? p.success_url : p.cancel_url
  if (!target) return undefined
  const status = p.status === "successful" ? "success" : "error"
  const common = {
    order_id: p.order_id,
    amount: p.amount,
    currency: p.currency,
    ts: String(Math.floor(Date.now() / 1000)),
    hash: issue(ctx, p, status),
  }
  const transfer = p.method === "bank_transfer" ? { uuid: p.uuid, type: "bank_transfer" } : {}
  if (status === "success") {
    return withQuery(target, { status, transaction_id: p.transaction_id, ...common, ...transfer })
  }
  return withQuery(target, { status, message: p.failure_message ?? MESSAGES.cardFailed, ...common, ...transfer })
}

export interface NotificationClaim {
  order_id: string
  status: string
  hash: string
}

export interface NotificationJudgement {
  hash_match: boolean
  status_match: boolean
  order_match: boolean
  is_valid: boolean
}

/**
 * §4.8 for a payment that exists. The claim is a notification's own fields, as
 * it arrived (a redirect's `success`/`error`, a webhook's `successful`/`failed`).
 * - `hash_match`: the emulator issued a notification with this `status` and this `hash`.
 * - `status_match`: `status` is what the notification owning this hash carried; for a
 *   hash the emulator never issued, `status` is one some notification of this payment carried.
 * So a redirect's `success` with the webhook's hash matches neither.
 */
export function judgeNotification(p: Payment, claim: NotificationClaim): NotificationJudgement {
  const issued = NOTIFICATION_STATUSES.filter((s) => p.hashes[s] !== undefined)
  // Every issued hash is compared (constant time each), so timing does not tell which one matched.
  const matches = issued.map((s) => [s, hashEquals(p.hashes[s]!, claim.hash)] as const)
  const owner = matches.find(([, same]) => same)?.[0]
  const hashMatch = owner !== undefined && owner === claim.status
  const statusMatch = owner !== undefined ? owner === claim.status : issued.some((s) => s === claim.status)
  const orderMatch = p.order_id === claim.order_id
  return { hash_match: hashMatch, status_match: statusMatch, order_match: orderMatch, is_valid: orderMatch && hashMatch && statusMatch }
}
