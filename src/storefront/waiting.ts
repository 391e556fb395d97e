import type { OdemeLanguage } from "./language"
import type { OdemePaymentSessionStatus } from "./responses"

/**
 * The return page's phases while the plugin's verdict is awaited
 * (`completeWhenPaid`): `checking` while it asks, `placing` once the payment
 * is confirmed and the order is being placed, `confirming` when the wait
 * ended without a verdict (the webhook is late; it still places the order).
 */
export type OdemeWaitPhase = "checking" | "placing" | "confirming"

export interface OdemeWaitingOptions {
  /**
   * The store sends its shoppers e-mail about their orders (Medusa sends none
   * until a notification provider is set up). Only then does the page promise
   * one. Off unless the store says so.
   */
  storeSendsEmail?: boolean
}

const tr = {
  checking: "Ödemeniz doğrulanıyor…",
  checkingNext:
    "Ödeme hizmetinin onayını bekliyoruz; bu genellikle birkaç saniye sürer. Onay gelince siparişiniz oluşturulur ve sipariş sayfanız açılır.",
  placing: "Ödemeniz onaylandı, siparişiniz oluşturuluyor…",
  placingNext: "Sipariş sayfanız birazdan açılacak.",
  confirming: "Ödemeniz hâlâ onaylanıyor",
  confirmingNext: "Ödeme hizmetinin onayı henüz gelmedi. Onay gelince siparişiniz kendiliğinden oluşturulur; bu sayfada beklemeniz gerekmez.",
  emailFollows: "Siparişiniz oluşturulunca size e-posta ile bildirilir.",
  checkLater: "Siparişinizi görmek için birkaç dakika sonra tekrar kontrol edin.",
  doNotPayAgain: "Lütfen tekrar ödeme yapmayın.",
  amount: "Tutar",
  orderNumber: "Sipariş no",
  paymentReference: "Ödeme referansı",
  backToShop: "Alışverişe dön",
  backToCart: "Sepete git",
  checkAgain: "Tekrar kontrol et",
}

const en: typeof tr = {
  checking: "Confirming your payment…",
  checkingNext:
    "We are waiting for the payment service to confirm it; this usually takes a few seconds. Once it does, your order is placed and its page opens.",
  placing: "Payment confirmed, placing your order…",
  placingNext: "Your order's page opens in a moment.",
  confirming: "Your payment is still being confirmed",
  confirmingNext: "The payment service has not confirmed it yet. Once it does, your order is placed by itself; you need not wait on this page.",
  emailFollows: "You will get an e-mail once your order is placed.",
  checkLater: "Check again in a few minutes to see your order.",
  doNotPayAgain: "Please do not pay again.",
  amount: "Amount",
  orderNumber: "Order number",
  paymentReference: "Payment reference",
  backToShop: "Back to the shop",
  backToCart: "View your cart",
  checkAgain: "Check again",
}

export type OdemeWaitingMessages = typeof tr

/** Every word of the waiting page, in Turkish and English. */
export const odemeWaitingMessages: Record<OdemeLanguage, OdemeWaitingMessages> = { tr, en }

export interface OdemeWaitingText {
  /** The phase's one line (a heading or a status line). */
  title: string
  /** What happens next, one sentence each, in order. */
  next: string[]
  amountLabel: string
  backToShop: string
  backToCart: string
  /** For a button that asks again once the wait ended (`confirming`). */
  checkAgain: string
}

/**
 * What the return page says in a phase: what is going on and what happens
 * next, never an internal id. The e-mail promise only where the store sends
 * e-mail (`storeSendsEmail`).
 */
export function odemeWaitingText(phase: OdemeWaitPhase, language: OdemeLanguage, options: OdemeWaitingOptions = {}): OdemeWaitingText {
  const m = odemeWaitingMessages[language]
  const next =
    phase === "checking"
      ? [m.checkingNext]
      : phase === "placing"
        ? [m.placingNext]
        : [m.confirmingNext, ...(options.storeSendsEmail ? [m.emailFollows] : []), m.checkLater, m.doNotPayAgain]
  return { title: m[phase], next, amountLabel: m.amount, backToShop: m.backToShop, backToCart: m.backToCart, checkAgain: m.checkAgain }
}

/** What the shopper's reference is made of: what the store API gives the storefront. */
export interface OdemeShopperReferenceSource {
  /** The order's `display_id`, once the cart became an order. */
  orderDisplayId?: number | string | null
  /**
   * The status route's last answer: its `shopper_reference` (`OD-7K3F9Q`, what the service's page
   * showed) is shown before there is an order; its `reference` is the Medusa session id, never shown.
   */
  status?: Partial<OdemePaymentSessionStatus> | null
}

/**
 * The one reference a shopper reads and can quote to the store, with its
 * label: the order number (`#1234`) once there is an order, else the
 * payment's short reference (`OD-7K3F9Q`, the `order_id` the service's page
 * showed), else none. Never a Medusa id (payses_…, cart_…, order_…).
 */
export function odemeShopperReference(source: OdemeShopperReferenceSource, language: OdemeLanguage): { label: string; value: string } | null {
  const id = source.orderDisplayId
  // A display id is a number; anything else (an internal id passed by mistake) is not shown.
  const text = typeof id === "number" ? String(id) : typeof id === "string" ? id.trim() : ""
  if (/^[1-9]\d*$/.test(text)) return { label: odemeWaitingMessages[language].orderNumber, value: `#${text}` }
  // Only the reference's own shape (src/lib/order-reference.ts): a session's id carried there by mistake is not shown.
  const short = source.status?.shopper_reference
  if (typeof short === "string" && /^[A-Z0-9]{1,6}-[0-9A-HJKMNP-TV-Z]{6}$/.test(short)) {
    return { label: odemeWaitingMessages[language].paymentReference, value: short }
  }
  return null
}
