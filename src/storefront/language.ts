export type OdemeLanguage = "tr" | "en"

/**
 * The language for a customer: Turkish for a `tr` / `tr-TR` locale, English
 * for any other locale that is set, and the store's default when none is.
 */
export function odemeLanguage(locale: string | null | undefined, fallback: OdemeLanguage = "en"): OdemeLanguage {
  const l = (locale ?? "").trim().toLowerCase()
  if (!l) return fallback
  return l === "tr" || l.startsWith("tr-") || l.startsWith("tr_") ? "tr" : "en"
}
