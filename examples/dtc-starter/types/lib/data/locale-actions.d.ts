// apps/storefront/src/lib/data/locale-actions.ts ("use server"): the `_medusa_locale` cookie
export declare const getLocale: () => Promise<string | null>
