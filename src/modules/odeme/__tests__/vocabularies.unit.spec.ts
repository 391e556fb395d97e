import { readdirSync, readFileSync } from "node:fs"
import path from "node:path"
import { ATTENTION_CODES } from "../../../lib/attention-types"
import * as V from "../models/states"

/**
 * Each stored vocabulary is defined once (models/states.ts) and held by the database: the newest check
 * constraint the migrations give each column lists exactly the words of its constant. A word added to a
 * constant without a migration, or a migration that forgets one, fails here before a store refuses a write.
 */
const MIGRATIONS = path.join(__dirname, "..", "migrations")

function newestChecks(): Map<string, string[]> {
  const checks = new Map<string, string[]>()
  const files = readdirSync(MIGRATIONS)
    .filter((f) => /^Migration\d+\.ts$/.test(f))
    .sort()
  for (const file of files) {
    const text = readFileSync(path.join(MIGRATIONS, file), "utf8")
    const up = text.slice(0, text.indexOf("async down"))
    const words = (list: string) => [...list.matchAll(/'([^']*)'/g)].map((m) => m[1])
    // `create table "t" (… "col" text check ("col" in (…)) …)`
    for (const table of up.matchAll(/create table if not exists "(\w+)" \(([^`]*)`/g)) {
      for (const m of table[2].matchAll(/"(\w+)" text check \("\1" in \(([^)]*)\)\)/g)) checks.set(`${table[1]}.${m[1]}`, words(m[2]))
    }
    // `constraint "t_col_check" check ("col" in (…))`, named as Medusa's generator names it
    for (const m of up.matchAll(/constraint "(\w+)_check" check ?\("(\w+)" in \(([^)]*)\)\)/g)) {
      const table = m[1].slice(0, -(m[2].length + 1))
      checks.set(`${table}.${m[2]}`, words(m[3]))
    }
  }
  return checks
}

describe("each stored vocabulary, once", () => {
  const checks = newestChecks()

  it.each([
    ["odeme_payment.status", V.PAYMENT_STATES],
    ["odeme_payment.review_code", V.REVIEW_CODES],
    ["odeme_payment.creation_state", V.CREATION_STATES],
    ["odeme_payment.flow", V.PAYMENT_FLOWS],
    ["odeme_payment.mode", V.KEY_MODES],
    ["odeme_notification.source", V.NOTIFICATION_SOURCES],
    ["odeme_notification.state", V.NOTIFICATION_STATES],
    ["odeme_notification.outcome", [...V.NOTIFICATION_OUTCOMES, ...V.LEGACY_NOTIFICATION_OUTCOMES]],
    ["odeme_charge.status", V.CHARGE_STATUSES],
    ["odeme_charge.role", V.CHARGE_ROLES],
    ["odeme_health.id", V.HEALTH_SIGNALS],
  ] as const)("%s is held by a check constraint listing exactly its words", (column, words) => {
    expect(checks.get(column)?.slice().sort()).toEqual([...words].sort())
  })

  it("a payment's review codes and Medusa's refusals are attention codes; no word is in two vocabularies of one column", () => {
    for (const code of [...V.REVIEW_CODES, ...V.MEDUSA_REFUSALS]) expect(ATTENTION_CODES).toContain(code)
    expect(new Set(ATTENTION_CODES).size).toBe(ATTENTION_CODES.length)
    expect(new Set(V.NOTIFICATION_OUTCOMES).size).toBe(V.NOTIFICATION_OUTCOMES.length)
    for (const legacy of V.LEGACY_NOTIFICATION_OUTCOMES) expect(V.NOTIFICATION_OUTCOMES).not.toContain(legacy)
  })

  it.each(["en", "tr"])("the Admin (%s) names every attention code, and nothing else", (lang) => {
    const json = JSON.parse(readFileSync(path.join(__dirname, "../../../admin/i18n/json", `${lang}.json`), "utf8"))
    const attention = json.odeme.attention
    // "other": what the Admin says of a code a newer server sends an older bundle.
    expect(Object.keys(attention.codes).sort()).toEqual([...ATTENTION_CODES, "other"].sort())
    expect(Object.keys(attention.todo).sort()).toEqual([...ATTENTION_CODES, "other"].sort())
  })

  it("every attention code the module's query can produce is in the list, and each listed one is produced somewhere", () => {
    const dir = path.join(__dirname, "..")
    const source = readdirSync(dir)
      .filter((f) => f.endsWith(".ts"))
      .map((f) => readFileSync(path.join(dir, f), "utf8"))
      .join("\n")
    const refusals: readonly string[] = V.MEDUSA_REFUSALS
    const produced = new Set(ATTENTION_CODES.filter((c) => source.includes(`'${c}'`) || refusals.includes(c)))
    for (const code of ATTENTION_CODES) {
      if (!(V.REVIEW_CODES as readonly string[]).includes(code)) expect([code, produced.has(code)]).toEqual([code, true])
    }
  })
})
