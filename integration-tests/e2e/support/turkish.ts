/**
 * What a Turkish reader must never see: an internal id, or an English
 * sentence of the project's own words. The English list is built from the
 * dictionaries the project ships (the storefront's coded messages, failure
 * reasons and waiting-page words, the demo storefront's labels, the Admin's words), so a new English
 * string that leaks into a Turkish page is caught without editing this file.
 */
import { odemeErrorMessages, odemeNotCompletedMessages, odemeReasonMessages, odemeWaitingMessages } from "../../../src/storefront"
import adminEn from "../../../src/admin/i18n/json/en.json"
import adminTr from "../../../src/admin/i18n/json/tr.json"

// The demo storefront's labels: a plain-JS browser module (no types), which @swc/jest compiles like the specs.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { messages: demoMessages } = require("../../../demo/storefront/i18n.js") as {
  messages: Record<"tr" | "en", Record<string, unknown>>
}

/**
 * Medusa's ids are `<prefix>_<ULID>` (payses_01…, pay_col_01…, order_01…,
 * cart_01…, cus_01…, prod_01…); the session and collection prefixes are
 * named too, in case one is ever shortened or cut.
 */
export const INTERNAL_ID = /\b(?:payses_|pay_col_)\w+|\b[a-z][a-z_]*_[0-9A-HJKMNP-TV-Z]{26}\b/

type Tree = { [k: string]: string | Tree }

function flatten(tree: Tree, prefix = "", out: Record<string, string> = {}) {
  for (const [k, v] of Object.entries(tree)) {
    if (typeof v === "string") out[prefix + k] = v
    else flatten(v, `${prefix}${k}.`, out)
  }
  return out
}

/** [en, tr] of every key both languages have. */
function pairs(): Array<[string, string]> {
  const out: Array<[string, string]> = []
  const en = flatten(adminEn as Tree)
  const tr = flatten(adminTr as Tree)
  for (const k of Object.keys(en)) if (k in tr) out.push([en[k], tr[k]])
  for (const k of Object.keys(demoMessages.en)) {
    const e = demoMessages.en[k]
    const t = demoMessages.tr[k]
    if (typeof e === "string" && typeof t === "string") out.push([e, t])
  }
  for (const m of [...Object.values(odemeErrorMessages), ...Object.values(odemeReasonMessages), odemeNotCompletedMessages]) out.push([m.en, m.tr])
  for (const k of Object.keys(odemeWaitingMessages.en) as Array<keyof typeof odemeWaitingMessages.en>) {
    out.push([odemeWaitingMessages.en[k], odemeWaitingMessages.tr[k]])
  }
  return out
}

/**
 * The English fragments to look for: each EN value that differs from its TR
 * value, cut at its placeholders ({{x}}, {x}) and into sentences. Kept are fragments of at least
 * two words and 10 characters, and single words of 6+ letters; a fragment
 * that also occurs in some Turkish value (a brand name such as "Odeme", a
 * technical word such as "Webhook" or "IBAN") is not English to a Turkish
 * reader and is dropped.
 */
export function englishFragments(): string[] {
  const all = pairs()
  const turkish = all.map(([, t]) => t.toLowerCase()).join("\n")
  const found = new Set<string>()
  for (const [en, tr] of all) {
    if (en === tr) continue
    // Each sentence on its own too: a message shown in part, or with another tail, is still caught.
    for (const raw of en.split(/\{\{?\s*\w+\s*\}?\}|(?<=[.!?;:])\s+/)) {
      const f = raw.replace(/^[\s,.:;!?()–—-]+|[\s,.:;!?()…–—-]+$/g, "")
      const words = f.split(/\s+/).filter(Boolean)
      const longEnough = words.length >= 2 ? f.length >= 10 : /^[A-Za-z]{6,}$/.test(f)
      if (longEnough && !turkish.includes(f.toLowerCase())) found.add(f)
    }
  }
  return [...found].sort((a, b) => b.length - a.length)
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")

/** The English fragments found in `text` (whole words; the text's whitespace collapsed). */
export function englishIn(text: string, fragments = englishFragments()): string[] {
  const flat = text.replace(/\s+/g, " ")
  return fragments.filter((f) => new RegExp(`(?<![\\p{L}\\d])${escape(f)}(?![\\p{L}\\d])`, "u").test(flat))
}

/** Fails with what was found and where: an internal id or English in a Turkish page's text. */
export function expectTurkishOnly(where: string, text: string) {
  const id = text.match(INTERNAL_ID)
  const english = englishIn(text)
  const problems = [id ? `internal id ${id[0]}` : "", english.length ? `English: ${english.map((e) => JSON.stringify(e)).join(", ")}` : ""].filter(
    Boolean
  )
  if (problems.length) throw new Error(`${where} shows ${problems.join("; ")}\n--- text ---\n${text.slice(0, 3000)}`)
}
