/**
 * Why a payment failed, as one of a few codes the storefront can translate.
 * The service's redirect `message` (spec §6.1) is free text that anyone can
 * put in a link, so it is never forwarded as text: only this code is.
 */
export type FailureReason = "insufficient_funds" | "authentication_failed" | "canceled" | "declined"

export function failureReason(message: string | undefined | null): FailureReason {
  const m = (message ?? "").toLocaleLowerCase("tr")
  if (/insufficient|yetersiz|bakiye|limit/.test(m)) return "insufficient_funds"
  if (/3d|authenticat|doğrula|dogrula|otp/.test(m)) return "authentication_failed"
  if (/cancel|iptal|vazge/.test(m)) return "canceled"
  return "declined"
}
