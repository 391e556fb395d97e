"use client"

import { odemeLanguage, type OdemeLanguage } from "medusa-payment-odeme/storefront"
import { useEffect, useState } from "react"
import { ODEME_DEFAULT_LANGUAGE } from "./strings"

/** The starter's locale cookie (set by its language select; readable by the browser on purpose). */
const LOCALE_COOKIE = "_medusa_locale"

/**
 * The customer's language in a client component. The first render uses the
 * store default, so the server's HTML and the browser's first render agree;
 * the cookie is read after mounting.
 */
export function useOdemeLanguage(): OdemeLanguage {
  const [language, setLanguage] = useState<OdemeLanguage>(ODEME_DEFAULT_LANGUAGE)
  useEffect(() => {
    const cookie = document.cookie.split("; ").find((c) => c.startsWith(`${LOCALE_COOKIE}=`))
    const locale = cookie ? decodeURIComponent(cookie.slice(LOCALE_COOKIE.length + 1)) : null
    setLanguage(odemeLanguage(locale, ODEME_DEFAULT_LANGUAGE))
  }, [])
  return language
}
