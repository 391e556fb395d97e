import { isOdemeErrorCode, type OdemeErrorCode } from "./error-codes"
import { odemeErrorMessages } from "./errors"
import type { OdemeLanguage } from "./language"
import { isOdemeFailureReason, odemeNotCompletedMessage, odemeReasonMessage, type OdemeFailureReason } from "./reasons"
import type { OdemeReturnParams } from "./return-params"

/**
 * Why a payment did not go through, as a code a storefront carries to its
 * next page (`/checkout?reason=…`) instead of text: a link with text lets
 * anyone put words in the shop's mouth, and text stays in the language it
 * was written in when the shopper switches. The code is translated where it
 * is shown, in the page's current language.
 * - a `reason` of the plugin's return redirect (a verified failure)
 * - `not_completed`: back through the cancel address, nothing verified (`returnedFromCancel`)
 * - one of the plugin's error codes (a refused completion, e.g. `odeme.payment_in_review`)
 */
export type OdemeFailureCode = OdemeFailureReason | "not_completed" | OdemeErrorCode

export function isOdemeFailureCode(value: unknown): value is OdemeFailureCode {
  return value === "not_completed" || isOdemeFailureReason(value) || isOdemeErrorCode(value)
}

/** The failure a return redirect says, or null when it says none (paid, or pending and still to be asked). */
export function odemeReturnFailure(params: Pick<OdemeReturnParams, "status" | "reason" | "returnedFromCancel">): OdemeFailureCode | null {
  if (params.status === "failed") return params.reason ?? "declined"
  return params.returnedFromCancel ? "not_completed" : null
}

/** The text of a failure code in `language`; an unknown or missing code reads as a plain decline, never echoed. */
export function odemeFailureMessage(code: string | null | undefined, language: OdemeLanguage): string {
  if (code === "not_completed") return odemeNotCompletedMessage(language)
  if (isOdemeErrorCode(code)) return odemeErrorMessages[code][language]
  return odemeReasonMessage(code, language)
}
