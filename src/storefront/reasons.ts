import type { FailureReason } from "../lib/failure-reason"
import type { OdemeLanguage } from "./language"

export type OdemeFailureReason = FailureReason

/**
 * Customer-facing text for the `reason` code the plugin's return redirect
 * carries on a verified failure. The code is all the storefront gets: the
 * service's own message is free text anyone can put in a link, so it is never
 * shown. `Record<FailureReason, …>` makes a new code a compile error here.
 */
export const odemeReasonMessages: Record<OdemeFailureReason, Record<OdemeLanguage, string>> = {
  insufficient_funds: {
    tr: "Kartınızın bakiyesi veya limiti bu ödeme için yeterli değil. Başka bir kart ya da ödeme yöntemi deneyin.",
    en: "Your card's balance or limit is not enough for this payment. Try another card or payment method.",
  },
  authentication_failed: {
    tr: "3D Secure doğrulaması tamamlanamadı. Lütfen tekrar deneyin; sorun sürerse bankanızla görüşün.",
    en: "The 3D Secure check could not be completed. Please try again; if it keeps failing, contact your bank.",
  },
  canceled: {
    tr: "Ödemeyi iptal ettiniz. Hazır olduğunuzda tekrar deneyebilirsiniz.",
    en: "You canceled the payment. You can try again whenever you are ready.",
  },
  declined: {
    tr: "Ödeme onaylanmadı. Lütfen tekrar deneyin veya başka bir ödeme yöntemi seçin.",
    en: "The payment was not approved. Please try again or choose another payment method.",
  },
}

export const ODEME_FAILURE_REASONS = Object.keys(odemeReasonMessages) as OdemeFailureReason[]

export function isOdemeFailureReason(value: unknown): value is OdemeFailureReason {
  return typeof value === "string" && (ODEME_FAILURE_REASONS as string[]).includes(value)
}

/** The message for a reason code; an unknown or missing code reads as a plain decline. */
export function odemeReasonMessage(reason: string | null | undefined, language: OdemeLanguage): string {
  return odemeReasonMessages[isOdemeFailureReason(reason) ? reason : "declined"][language]
}

/**
 * Text for a return with `returnedFromCancel` (see `parseOdemeReturnParams`): the service
 * sent the customer back through its cancel address with nothing verified. It sends a cancel
 * and a failure (a declined card, a failed 3-D Secure check) there alike (spec §6.1), and a
 * redirect proves nothing, so the text claims neither: not "you canceled", not "no money was taken".
 */
export const odemeNotCompletedMessages: Record<OdemeLanguage, string> = {
  tr: "Ödeme tamamlanmadı. Tekrar deneyebilir ya da başka bir ödeme yöntemi seçebilirsiniz.",
  en: "The payment was not completed. You can try again or choose another payment method.",
}

/** The message for a return with `returnedFromCancel`: neutral, true for a cancel and a decline alike. */
export function odemeNotCompletedMessage(language: OdemeLanguage): string {
  return odemeNotCompletedMessages[language]
}
