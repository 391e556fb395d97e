import { Buildings, CreditCard } from "@medusajs/icons"
import { ODEME_CHECKOUT_PROVIDER_ID, ODEME_TRANSFER_PROVIDER_ID } from "medusa-payment-odeme/storefront"
import React from "react"
import { ODEME_DEFAULT_LANGUAGE, odemeStrings } from "./strings"

/**
 * Entries for the starter's `paymentInfoMap` (src/lib/constants.tsx). Its
 * titles are plain strings of one language, so they follow the store's
 * default language (NEXT_PUBLIC_ODEME_LANGUAGE); the Odeme parts of the
 * payment step, the return page and the order page follow the customer's.
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
