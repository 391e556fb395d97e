import type { OdemeLanguage } from "medusa-payment-odeme/storefront"

/**
 * The store's language when the customer chose none (`_medusa_locale` cookie
 * unset) and their browser does not prefer Turkish. NEXT_PUBLIC_ so the
 * server render and the browser agree.
 */
export const ODEME_DEFAULT_LANGUAGE: OdemeLanguage = process.env.NEXT_PUBLIC_ODEME_LANGUAGE === "tr" ? "tr" : "en"

/**
 * The store sends its shoppers order e-mails (Medusa sends none until a notification
 * provider is set up): only then does the return page promise one.
 */
export const ODEME_STORE_SENDS_EMAIL = process.env.NEXT_PUBLIC_ODEME_STORE_SENDS_EMAIL === "true"

/**
 * The language for a shopper without a `_medusa_locale` cookie, from the
 * browser's languages, most preferred first (Accept-Language on the server,
 * `navigator.languages` in the browser): Turkish when Turkish comes before
 * English, else the store default. A browser that prefers English keeps the
 * default, so a store whose texts are Turkish (`NEXT_PUBLIC_ODEME_LANGUAGE=tr`)
 * never gets English Odeme texts on its pages.
 */
export function browserOdemeLanguage(preferred: readonly string[], fallback: OdemeLanguage = ODEME_DEFAULT_LANGUAGE): OdemeLanguage {
  for (const tag of preferred) {
    const primary = tag.trim().toLowerCase().split(/[-_]/)[0]
    if (primary === "tr") return "tr"
    if (primary === "en") return fallback
  }
  return fallback
}

/** An Accept-Language header's tags, most preferred first: "en;q=0.5, tr-TR" → ["tr-TR", "en"] (q=0 and "*" left out). */
export function acceptLanguageTags(header: string | null | undefined): string[] {
  return (header ?? "")
    .split(",")
    .map((part, index) => {
      const [tag = "", ...params] = part.split(";").map((x) => x.trim())
      const q = params.find((p) => p.toLowerCase().startsWith("q="))
      const quality = q === undefined ? 1 : Number(q.slice(2))
      return { tag, quality: Number.isFinite(quality) ? quality : 0, index }
    })
    .filter((l) => l.tag && l.tag !== "*" && l.quality > 0)
    .sort((a, b) => b.quality - a.quality || a.index - b.index)
    .map((l) => l.tag)
}

const tr = {
  checkoutTitle: "Kart veya havale (Hızlı Ödeme)",
  transferTitle: "Havale / EFT",
  chooseBank: "Parayı göndereceğiniz hesabı seçin",
  loadingBanks: "Banka hesapları yükleniyor…",
  noBanks: "Şu anda havale için hesap yok. Lütfen başka bir ödeme yöntemi seçin.",
  banksFailed: "Banka hesapları alınamadı. Lütfen sayfayı yenileyin veya başka bir ödeme yöntemi seçin.",
  accountHolder: "Alıcı",
  payerName: "Gönderenin adı soyadı",
  payerNameHint: "Havaleyi yapacak hesabın sahibinin adı; tutar ve ad eşleşince ödeme kendiliğinden onaylanır.",
  payerNameTooShort: "Gönderenin adını ve soyadını yazın.",
  payByCard: "Hızlı Ödeme sayfasına git",
  redirecting: "Hızlı Ödeme sayfasına yönlendiriliyorsunuz…",
  placeTransferOrder: "Siparişi ver ve IBAN'ı göster",
  transferNotCreated: "Havale oluşturulamadı. Lütfen tekrar deneyin veya başka bir ödeme yöntemi seçin.",
  formFailed: "Hızlı Ödeme sayfası açılamadı. Lütfen ödeme yöntemini yeniden seçin.",
  sessionFailed: "Ödeme başlatılamadı. Lütfen tekrar deneyin veya başka bir ödeme yöntemi seçin.",
  returnTitle: "Ödeme",
  backToPayment: "Ödeme yöntemine dön",
  orderFailed: "Sipariş oluşturulamadı",
  invalidReturn: "Bu ödeme bağlantısı geçerli değil.",
  transferDetails: "Havale bilgileri",
  transferWaiting: "Siparişiniz havalenizi bekliyor. Tutarı aşağıdaki hesaba, adınıza kayıtlı bir hesaptan gönderin:",
  transferReceived: "Havaleniz alındı. Teşekkür ederiz!",
  transferClosed: "Bu havale artık beklenmiyor. Sorunuz varsa mağazayla iletişime geçin.",
  bank: "Banka",
  iban: "IBAN",
  amount: "Tutar",
  trackingNo: "Takip numarası",
  reference: "Açıklamaya yazın",
  referenceHint: "Havale açıklamasına yalnızca sipariş numaranızı yazın.",
  deadline: "Son gönderim zamanı",
  copy: "Kopyala",
  copied: "Kopyalandı",
  sender: "Gönderen",
}

const en: typeof tr = {
  checkoutTitle: "Card or transfer (Quick Checkout)",
  transferTitle: "Bank transfer (havale / EFT)",
  chooseBank: "Choose the account to send the money to",
  loadingBanks: "Loading bank accounts…",
  noBanks: "No account is available for a transfer right now. Please choose another payment method.",
  banksFailed: "The bank accounts could not be loaded. Please reload the page or choose another payment method.",
  accountHolder: "Account holder",
  payerName: "Sender's full name",
  payerNameHint: "The name on the account you send from; when name and amount match, the payment is confirmed by itself.",
  payerNameTooShort: "Enter the sender's first and last name.",
  payByCard: "Go to the Quick Checkout page",
  redirecting: "Taking you to the Quick Checkout page…",
  placeTransferOrder: "Place order and show the IBAN",
  transferNotCreated: "The bank transfer could not be created. Please try again or choose another payment method.",
  formFailed: "The Quick Checkout page could not be opened. Please choose the payment method again.",
  sessionFailed: "The payment could not be started. Please try again or choose another payment method.",
  returnTitle: "Payment",
  backToPayment: "Back to the payment method",
  orderFailed: "The order could not be placed",
  invalidReturn: "This payment link is not valid.",
  transferDetails: "Bank transfer details",
  transferWaiting: "Your order is waiting for your transfer. Send the amount to this account, from an account in your name:",
  transferReceived: "Your transfer has arrived. Thank you!",
  transferClosed: "This transfer is no longer expected. Please contact the store if you have questions.",
  bank: "Bank",
  iban: "IBAN",
  amount: "Amount",
  trackingNo: "Tracking number",
  reference: "Write in the description",
  referenceHint: "Write only your order number in the transfer's description.",
  deadline: "Send it by",
  copy: "Copy",
  copied: "Copied",
  sender: "Sender",
}

export type OdemeStrings = typeof tr

export const odemeStrings: Record<OdemeLanguage, OdemeStrings> = { tr, en }

/** "₺1.250,00" / "TRY 1,250.00" (Intl tr-TR / en-US) from the plugin's decimal string ("1250.00"). */
export function formatOdemeAmount(amount: string, currency: string, language: OdemeLanguage): string {
  const value = Number(amount)
  if (!Number.isFinite(value)) return `${amount} ${currency}`
  try {
    return new Intl.NumberFormat(language === "tr" ? "tr-TR" : "en-US", { style: "currency", currency }).format(value)
  } catch {
    return `${amount} ${currency}`
  }
}

/** "27 Kasım 2026 Cuma 14:30" / "Friday, November 27, 2026 at 2:30 PM" in the shop's time zone (Türkiye's unless NEXT_PUBLIC_ODEME_TIME_ZONE). */
export function formatOdemeDeadline(iso: string, language: OdemeLanguage): string {
  const date = new Date(iso)
  if (Number.isNaN(date.getTime())) return iso
  return new Intl.DateTimeFormat(language === "tr" ? "tr-TR" : "en-US", {
    dateStyle: "full",
    timeStyle: "short",
    timeZone: process.env.NEXT_PUBLIC_ODEME_TIME_ZONE || "Europe/Istanbul",
  }).format(date)
}
