export const PaymentProviderKeys = {
  TRANSFER: "odeme-transfer",
  CHECKOUT: "odeme-checkout",
} as const
