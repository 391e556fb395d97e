/**
 * Payment provider ids as Medusa builds them: `pp_{identifier}_{id}`, where
 * the identifier is the provider class's and `id` the one the store gave the
 * provider in medusa-config (the README uses "odeme").
 */
export type OdemeProviderKind = "checkout" | "transfer"

export const ODEME_CHECKOUT_PROVIDER_ID = "pp_odeme-checkout_odeme"
export const ODEME_TRANSFER_PROVIDER_ID = "pp_odeme-transfer_odeme"

/** The provider id for a store that registered the provider under another `id`. */
export function odemeProviderId(kind: OdemeProviderKind, registrationId = "odeme"): string {
  if (!/^[A-Za-z0-9_-]+$/.test(registrationId)) {
    throw new TypeError(`Invalid provider registration id "${registrationId}"`)
  }
  return `pp_odeme-${kind}_${registrationId}`
}

/** Which Odeme flow a provider id belongs to, or null for another provider. */
export function odemeProviderKind(providerId: string | null | undefined): OdemeProviderKind | null {
  if (!providerId) return null
  if (providerId.startsWith("pp_odeme-checkout_")) return "checkout"
  if (providerId.startsWith("pp_odeme-transfer_")) return "transfer"
  return null
}

export const isOdemeProvider = (providerId?: string | null): boolean => odemeProviderKind(providerId) !== null
export const isOdemeCheckout = (providerId?: string | null): boolean => odemeProviderKind(providerId) === "checkout"
export const isOdemeTransfer = (providerId?: string | null): boolean => odemeProviderKind(providerId) === "transfer"
