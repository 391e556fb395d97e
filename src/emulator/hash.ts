import { createHmac } from "node:crypto"
import { formatAmount } from "./money"
import { sameSecret } from "./signature"
import type { NotificationStatus } from "./types"

export interface HashFields {
  order_id: string
  uuid: string
  status: NotificationStatus
  amount: string | number
  currency: string
  transaction_id: string
}

/**
 * Canonical string of a notification (emulator's own choice; the spec does
 * not show the algorithm): the six fields sorted by name as `k=v` joined by
 * `|`, amount with two decimals, currency upper-cased. The status word is the
 * one the notification carries, so a redirect (`success`) and a webhook
 * (`successful`) of the same payment have different hashes.
 */
export function canonicalNotificationString(f: HashFields): string {
  const parts: Record<string, string> = {
    amount: formatAmount(f.amount),
    currency: String(f.currency).toUpperCase(),
    order_id: String(f.order_id),
    status: f.status,
    transaction_id: String(f.transaction_id),
    uuid: String(f.uuid),
  }
  return Object.keys(parts)
    .sort()
    .map((k) => `${k}=${parts[k]}`)
    .join("|")
}

export function notificationHash(secret: string, f: HashFields): string {
  return createHmac("sha256", secret).update(canonicalNotificationString(f), "utf8").digest("hex")
}

export function hashEquals(a: string, b: string): boolean {
  return sameSecret(a, b)
}
