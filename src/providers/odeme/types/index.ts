export const PaymentProviderKeys = {
  TRANSFER: "odeme-transfer",
  CHECKOUT: "odeme-checkout",
} as const

export type OdemeProviderKey = (typeof PaymentProviderKeys)[keyof typeof PaymentProviderKeys]

/** How the customer paid; shown to admins. */
export type OdemeFlow = "card" | "transfer_page" | "transfer_api"
