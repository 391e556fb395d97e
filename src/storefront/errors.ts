import { odemeErrorCode, type OdemeErrorCode } from "./error-codes"
import type { OdemeLanguage } from "./language"

export { ODEME_ERROR_CODES, isOdemeErrorCode, odemeErrorCode, type OdemeErrorCode } from "./error-codes"

/**
 * Customer-facing text for the stable code of a checkout error (cart
 * completion, the plugin's store routes). `Record<OdemeErrorCode, …>` makes a
 * new code a compile error here until it has both texts.
 */
export const odemeErrorMessages: Record<OdemeErrorCode, Record<OdemeLanguage, string>> = {
  "odeme.service_unavailable": {
    tr: "Ödeme hizmetine şu anda ulaşılamıyor. Lütfen birkaç dakika sonra tekrar deneyin.",
    en: "The payment service cannot be reached right now. Please try again in a few minutes.",
  },
  "odeme.service_misconfigured": {
    tr: "Bu ödeme yöntemi şu anda kullanılamıyor. Lütfen başka bir ödeme yöntemi seçin veya mağazayla iletişime geçin.",
    en: "This payment method is not available right now. Please choose another one or contact the store.",
  },
  "odeme.service_refused": {
    tr: "Ödeme hizmeti bu isteği kabul etmedi. Lütfen tekrar deneyin veya başka bir ödeme yöntemi seçin.",
    en: "The payment service did not accept this request. Please try again or choose another payment method.",
  },
  "odeme.service_invalid_answer": {
    tr: "Ödeme hizmetinden beklenmeyen bir yanıt alındı. Lütfen birkaç dakika sonra tekrar deneyin.",
    en: "The payment service sent an unexpected answer. Please try again in a few minutes.",
  },
  "odeme.currency_unsupported": {
    tr: "Bu ödeme yöntemi sepetinizin para birimini desteklemiyor. Lütfen başka bir ödeme yöntemi seçin.",
    en: "This payment method does not support your cart's currency. Please choose another payment method.",
  },
  "odeme.amount_invalid": {
    tr: "Sepet tutarı bu ödeme yöntemiyle ödenemiyor.",
    en: "The cart total cannot be paid with this payment method.",
  },
  "odeme.amount_below_minimum": {
    tr: "Sepet tutarı bu ödeme yöntemi için gereken en düşük tutarın altında.",
    en: "The cart total is below the minimum amount for this payment method.",
  },
  "odeme.return_url_not_allowed": {
    tr: "Hızlı Ödeme sayfası açılamadı. Lütfen sayfayı yenileyip tekrar deneyin.",
    en: "The Quick Checkout page could not be opened. Please reload the page and try again.",
  },
  "odeme.invalid_session_data": {
    tr: "Ödeme bilgileri okunamadı. Lütfen sayfayı yenileyip tekrar deneyin.",
    en: "The payment details could not be read. Please reload the page and try again.",
  },
  "odeme.bank_unknown": {
    tr: "Seçtiğiniz banka hesabı artık listede yok. Lütfen listeden bir hesap seçin.",
    en: "The bank account you chose is no longer listed. Please choose one from the list.",
  },
  "odeme.transfer_details_missing": {
    tr: "Lütfen bir banka hesabı seçin ve ödemeyi yapacak kişinin adını soyadını girin.",
    en: "Please choose a bank account and enter the full name of the person who pays.",
  },
  "odeme.sandbox_only": {
    tr: "Bu seçenek yalnızca test modunda kullanılabilir.",
    en: "This option is only available in test mode.",
  },
  "odeme.session_unknown": {
    tr: "Bu ödeme oturumu bulunamadı. Lütfen ödemeyi yeniden başlatın.",
    en: "This payment session was not found. Please start the payment again.",
  },
  "odeme.payment_failed": {
    tr: "Ödeme onaylanmadı. Lütfen tekrar deneyin veya başka bir ödeme yöntemi seçin.",
    en: "The payment was not approved. Please try again or choose another payment method.",
  },
  "odeme.payment_canceled": {
    tr: "Bu ödeme iptal edildi. Lütfen ödemeyi yeniden başlatın.",
    en: "This payment was canceled. Please start the payment again.",
  },
  "odeme.payment_in_review": {
    tr: "Ödemeniz otomatik olarak onaylanamadı ve mağaza tarafından inceleniyor. Lütfen tekrar ödeme yapmayın.",
    en: "Your payment could not be confirmed automatically and is being reviewed by the store. Please do not pay again.",
  },
  "odeme.payment_pending": {
    tr: "Ödemeniz henüz onaylanmadı. Birkaç saniye içinde tekrar kontrol ediyoruz.",
    en: "Your payment has not been confirmed yet. We will check again in a few seconds.",
  },
  "odeme.payment_in_progress": {
    tr: "Havale talimatınız hazırlanıyor. Lütfen birkaç saniye sonra tekrar deneyin.",
    en: "Your bank transfer is being prepared. Please try again in a few seconds.",
  },
  "odeme.creation_unknown": {
    tr: "Havale talimatının oluşup oluşmadığı doğrulanamadı; tekrar oluşturulmayacak. Lütfen ödemeyi yeniden başlatın; mağaza durumu kontrol edecek.",
    en: "We could not confirm whether the bank transfer was created, so it is not created again. Please start the payment again; the store will check it.",
  },
  "odeme.order_canceled": {
    tr: "Bu sipariş iptal edildi; ödeme alınmıyor. Sorunuz varsa lütfen mağazayla iletişime geçin.",
    en: "This order was canceled, so no payment is taken for it. Please contact the store if you have a question.",
  },
  "odeme.already_paid": {
    tr: "Bu sipariş zaten ödendi; yeniden ödemeniz gerekmiyor. Siparişinizi hesabınızdan ya da e-postanızdan takip edebilirsiniz.",
    en: "This order has already been paid; there is nothing more to pay. You can follow your order in your account or your email.",
  },
  "odeme.amount_changed": {
    tr: "Ödenecek tutar değişti. Lütfen sayfayı yenileyip güncel tutarla ödemeyi yeniden başlatın.",
    en: "The amount to pay has changed. Please reload the page and start the payment again for the current amount.",
  },
  "odeme.cart_busy": {
    tr: "Sepetiniz şu anda başka bir işlemle güncelleniyor. Lütfen birkaç saniye sonra tekrar deneyin.",
    en: "Your cart is being updated by another request. Please try again in a few seconds.",
  },
}

/**
 * What to show a customer for an error from the plugin: the translated text
 * of its code. For an error that is not the plugin's (Medusa's errors, a
 * network failure), whose text is English: in English its own message, in
 * Turkish never (a Turkish page shows no English), so `fallback` or the
 * generic failure text.
 */
export function odemeErrorMessage(error: unknown, language: OdemeLanguage, fallback?: string): string {
  const code = odemeErrorCode(error)
  if (code) return odemeErrorMessages[code][language]
  const generic = fallback ?? odemeErrorMessages["odeme.payment_failed"][language]
  if (language !== "en") return generic
  const message = error && typeof error === "object" ? (error as { message?: unknown }).message : error
  return typeof message === "string" && message ? message : generic
}
