"use client"

import { odemeLanguage, type OdemeLanguage } from "medusa-payment-odeme/storefront"
import { useEffect, useState } from "react"
import { ODEME_DEFAULT_LANGUAGE, browserOdemeLanguage } from "./strings"

/** The starter's locale cookie (set by its language select; readable by the browser on purpose). */
const LOCALE_COOKIE = "_medusa_locale"

/**
 * The customer's language in a client component, as `getOdemeLanguage` on the
 * server: the cookie, else the browser's languages (what it sends as
 * Accept-Language), else the store default. The first render uses the store
 * default, so the server's HTML and the browser's first render agree; the
 * rest is read after mounting.
 */
export function useOdemeLanguage(): OdemeLanguage {
  const [language, setLanguage] = useState<OdemeLanguage>(ODEME_DEFAULT_LANGUAGE)
  useEffect(() => {
    const cookie = document.cookie.split("; ").find((c) => c.startsWith(`${LOCALE_COOKIE}=`))
    const locale = cookie ? decodeURIComponent(cookie.slice(LOCALE_COOKIE.length + 1)) : null
    const browser = navigator.languages?.length ? navigator.languages : [navigator.language]
    setLanguage(locale ? odemeLanguage(locale, ODEME_DEFAULT_LANGUAGE) : browserOdemeLanguage(browser))
  }, [])
  return language
}
