import type { OdemeLanguage } from "medusa-payment-odeme/storefront"

/**
 * The balance page's words (Admin's "Copy payment link" after an order edit,
 * exchange or claim), apart from the checkout's strings so the page can be
 * added or left out on its own.
 */
const tr = {
  title: "Ek ödeme",
  intro: "Siparişiniz güncellendi; kalan tutarın ödenmesi gerekiyor.",
  order: "Sipariş",
  due: "Ödenecek tutar",
  orderTotal: "Sipariş toplamı",
  checkout: "Kart veya havale (Hızlı Ödeme)",
  transfer: "Havale / EFT",
  chooseBank: "Parayı göndereceğiniz hesabı seçin",
  payerName: "Gönderenin adı soyadı",
  payerNameTooShort: "Gönderenin adını ve soyadını yazın.",
  pay: "Öde",
  redirecting: "Hızlı Ödeme sayfasına yönlendiriliyorsunuz…",
  confirming: "Ödemeniz onaylanıyor, lütfen bu sayfayı kapatmayın…",
  transferWaiting: "Tutarı aşağıdaki hesaba, adınıza kayıtlı hesaptan gönderin. Açıklamaya yalnızca sipariş numaranızı yazın:",
  bank: "Banka",
  accountHolder: "Alıcı",
  iban: "IBAN",
  amount: "Tutar",
  reference: "Açıklama",
  deadline: "Son gönderim zamanı",
  copy: "Kopyala",
  copied: "Kopyalandı",
  paid: "Teşekkürler, ek ödemeniz alındı. Siparişinizin ödenmemiş tutarı kalmadı.",
  failed: "Ödeme onaylanmadı. Lütfen tekrar deneyin veya başka bir ödeme yöntemi seçin.",
  invalid: "Bu ödeme bağlantısı geçerli değil. Lütfen mağazayla iletişime geçin.",
}

const en: typeof tr = {
  title: "Additional payment",
  intro: "Your order was updated; the remaining amount needs to be paid.",
  order: "Order",
  due: "Amount due",
  orderTotal: "Order total",
  checkout: "Card or transfer (Quick Checkout)",
  transfer: "Bank transfer (havale/EFT)",
  chooseBank: "Choose the account to send the money to",
  payerName: "Payer's full name",
  payerNameTooShort: "Enter the payer's first and last name.",
  pay: "Pay",
  redirecting: "Taking you to the Quick Checkout page…",
  confirming: "Confirming your payment, please keep this page open…",
  transferWaiting: "Send the amount to the account below from an account in your name. Write only your order number in the description:",
  bank: "Bank",
  accountHolder: "Recipient",
  iban: "IBAN",
  amount: "Amount",
  reference: "Description",
  deadline: "Send it by",
  copy: "Copy",
  copied: "Copied",
  paid: "Thank you, your additional payment was received. Nothing is left to pay on your order.",
  failed: "The payment was not approved. Please try again or choose another payment method.",
  invalid: "This payment link is not valid. Please contact the store.",
}

export const odemeBalanceStrings: Record<OdemeLanguage, typeof tr> = { tr, en }

/** Amounts as the customer reads them: tr-TR in Turkish ("₺1.250,00"), en-GB in English ("TRY 1,250.00"). */
export function formatBalanceAmount(amount: number | string, currency: string, language: OdemeLanguage): string {
  return new Intl.NumberFormat(language === "tr" ? "tr-TR" : "en-GB", { style: "currency", currency: currency.toUpperCase() }).format(Number(amount))
}
