import { ODEME_ENDPOINTS } from "./endpoints"
import { requireString } from "./input"
import { VerifyResultSchema, type VerifyResult } from "./schemas"
import type { OdemeTransport } from "./transport"

export interface VerifyNotificationInput {
  order_id: string
  uuid: string
  status: string
  hash: string
}

/**
 * §4.8. Retry-safe: verify only reads the service's verdict. The order is
 * paid only when `is_valid === true` and `official_status === "successful"`
 * (see `isVerifiedSuccessful`).
 */
export async function verifyNotification(t: Pick<OdemeTransport, "call">, input: VerifyNotificationInput): Promise<VerifyResult> {
  if (!input || typeof input !== "object") throw new TypeError("verifyNotification input is required")
  const body = {
    order_id: requireString(input.order_id, "order_id"),
    uuid: requireString(input.uuid, "uuid"),
    status: requireString(input.status, "status"),
    hash: requireString(input.hash, "hash"),
  }
  const ep = ODEME_ENDPOINTS.verifyNotification
  return t.call(ep, ep.template, VerifyResultSchema, body)
}
