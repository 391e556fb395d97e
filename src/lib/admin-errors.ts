import { MedusaError } from "@medusajs/framework/utils"
import { messageWithCode } from "../storefront/error-codes"

/**
 * Stable codes of the admin routes' refusals. The Admin shows the code's text
 * in the user's language (`odeme.errors.<code without "odeme.">` in
 * src/admin/i18n/json); the English message is for logs and API clients.
 */
export const ADMIN_ERROR_CODES = [
  "odeme.order_not_found",
  "odeme.payment_not_found",
  "odeme.notification_not_found",
  "odeme.notification_busy",
  "odeme.charge_not_found",
  "odeme.refund_not_found",
  "odeme.not_in_review",
  "odeme.note_too_short",
  /** `refunds: "reject"`: Medusa Admin's own refund button, whose toast shows the message as it is (both languages). */
  "odeme.refunds_rejected",
] as const

export type AdminOdemeErrorCode = (typeof ADMIN_ERROR_CODES)[number]

/**
 * A refusal with its code in `code` and, because js-sdk's FetchError keeps only
 * the answer's `message`, also at the end of the message in brackets (as the
 * store routes' codes: `… [odeme.notification_busy]`). The type must be one
 * Medusa answers with the message and code as they are: not CONFLICT, whose
 * answer Medusa replaces with its own sentence about an Idempotency-Key.
 */
export function adminOdemeError(type: string, code: AdminOdemeErrorCode, message: string): MedusaError {
  return new MedusaError(type, messageWithCode(message, code), code)
}
