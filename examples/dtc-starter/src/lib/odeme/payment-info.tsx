import { Buildings, CreditCard } from "@medusajs/icons"
import { ODEME_CHECKOUT_PROVIDER_ID, ODEME_TRANSFER_PROVIDER_ID, type OdemeLanguage } from "medusa-payment-odeme/storefront"
import React from "react"
import { ODEME_DEFAULT_LANGUAGE, odemeStrings } from "./strings"

/**
 * Entries for the starter's `paymentInfoMap` (src/lib/constants.tsx). Its
 * titles are plain strings of one language, the store's default
 * (NEXT_PUBLIC_ODEME_LANGUAGE); where the patch shows a title (the payment
 * step's list and summary, the order page's "Payment method") it takes the
 * customer's language from `withOdemeTitles` / `odemePaymentTitle`.
 */
export const odemePaymentInfoMap: Record<string, { title: string; icon: React.JSX.Element }> = {
  [ODEME_CHECKOUT_PROVIDER_ID]: {
    title: odemeStrings[ODEME_DEFAULT_LANGUAGE].checkoutTitle,
    icon: <CreditCard />,
  },
  [ODEME_TRANSFER_PROVIDER_ID]: {
    title: odemeStrings[ODEME_DEFAULT_LANGUAGE].transferTitle,
    icon: <Buildings />,
  },
}

/** An Odeme provider's title in `language`; undefined for any other provider. */
export function odemePaymentTitle(providerId: string | null | undefined, language: OdemeLanguage): string | undefined {
  if (providerId === ODEME_CHECKOUT_PROVIDER_ID) return odemeStrings[language].checkoutTitle
  if (providerId === ODEME_TRANSFER_PROVIDER_ID) return odemeStrings[language].transferTitle
  return undefined
}

/** The starter's `paymentInfoMap` with the Odeme titles in `language` (the other providers' entries unchanged). */
export function withOdemeTitles<T extends { title: string }>(map: Record<string, T>, language: OdemeLanguage): Record<string, T> {
  const localized: Record<string, T> = { ...map }
  for (const id of [ODEME_CHECKOUT_PROVIDER_ID, ODEME_TRANSFER_PROVIDER_ID]) {
    const entry = map[id]
    const title = odemePaymentTitle(id, language)
    if (entry && title) localized[id] = { ...entry, title }
  }
  return localized
}
