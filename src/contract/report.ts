import { writeFileSync } from "node:fs"
import { redact } from "../client/errors"
import type { ObservedShape, TypeDifference } from "./shape-diff"

/** `error` of the scenarios that did not run because the run stopped. */
export const RUN_STOPPED = "the run was stopped before this scenario"

export type ScenarioStatus = "passed" | "failed" | "skipped" | "refused"

/** One HTTP exchange of a scenario. Holds types and names, never the API key or raw bodies. */
export interface StepRecord {
  name: string
  method: string
  /** Path template, e.g. /api/pay/bank_transfer/uuid/{uuid}. */
  path: string
  http_status: number | null
  duration_ms: number
  /** Name of the contract's spec schema (spec-schemas.ts) the raw body was parsed with. */
  schema?: string
  schema_ok?: boolean
  schema_issues?: Array<{ path: string; message: string }>
  /** Compared with the emulator's answer shape. */
  missing: string[]
  other_type: TypeDifference[]
  extra: string[]
  /** JSON types of the answer (no values). */
  observed_shape?: ObservedShape
  note?: string
}

export interface CheckRecord {
  name: string
  ok: boolean
  expected: unknown
  actual: unknown
}

export interface ScenarioResult {
  id: string
  title: string
  status: ScenarioStatus
  duration_ms: number
  steps: StepRecord[]
  checks: CheckRecord[]
  /** Why it failed, was skipped or stopped the run. */
  error?: string
  notes: string[]
}

export interface ContractReport {
  tool: "medusa-payment-odeme contract test"
  version: string
  generated_at: string
  target: { base_url: string; node: string }
  /** What the answers are compared with. */
  expectation: "emulator answer shapes (src/contract/expectations.ts)"
  outcome: "passed" | "failed" | "refused"
  /** Set when the run stopped early (live key, rejected key). */
  stopped?: string
  summary: { total: number; passed: number; failed: number; skipped: number; refused: number; differences: number }
  scenarios: ScenarioResult[]
}

export function scenarioDifferences(s: ScenarioResult): { missing: string[]; other_type: TypeDifference[]; extra: string[] } {
  const prefix = (step: StepRecord, p: string) => (s.steps.length > 1 ? `${step.name}:${p}` : p)
  return {
    missing: s.steps.flatMap((st) => st.missing.map((p) => prefix(st, p))),
    other_type: s.steps.flatMap((st) => st.other_type.map((d) => ({ ...d, path: prefix(st, d.path) }))),
    extra: s.steps.flatMap((st) => st.extra.map((p) => prefix(st, p))),
  }
}

export function countDifferences(s: ScenarioResult): number {
  const d = scenarioDifferences(s)
  return d.missing.length + d.other_type.length + d.extra.length
}

export function summarize(scenarios: ScenarioResult[]): ContractReport["summary"] {
  const by = (st: ScenarioStatus) => scenarios.filter((s) => s.status === st).length
  return {
    total: scenarios.length,
    passed: by("passed"),
    failed: by("failed"),
    skipped: by("skipped"),
    refused: by("refused"),
    differences: scenarios.reduce((n, s) => n + countDifferences(s), 0),
  }
}

/** Writes the report as JSON, with the API key stripped from every string as a last safety net. */
export function writeReport(file: string, report: ContractReport, secrets: string[]): void {
  writeFileSync(file, redact(JSON.stringify(report, null, 2), secrets) + "\n", "utf8")
}

function cell(text: string, width: number): string {
  if (text.length > width) return text.slice(0, width - 1) + "…"
  return text.padEnd(width)
}

function list(items: string[]): string {
  return items.length ? items.join(", ") : "-"
}

function short(v: unknown): string {
  const s = typeof v === "string" ? JSON.stringify(v) : v === undefined ? "(absent)" : JSON.stringify(v)
  return s.length > 80 ? s.slice(0, 79) + "…" : s
}

/** The stdout table plus details for every scenario that did not pass or has differences. */
export function formatReport(report: ContractReport): string {
  const lines: string[] = []
  lines.push(`Contract test against ${report.target.base_url}: answers compared with the emulator's answer shapes`)
  const header = [cell("scenario", 36), cell("result", 8), cell("missing", 24), cell("other type", 30), "extra (not in emulator)"]
  lines.push(header.join(" "))
  lines.push("-".repeat(120))
  for (const s of report.scenarios) {
    const d = scenarioDifferences(s)
    lines.push(
      [
        cell(s.id, 36),
        cell(s.status, 8),
        cell(list(d.missing), 24),
        cell(list(d.other_type.map((t) => `${t.path} (${t.actual}, want ${t.expected})`)), 30),
        list(d.extra),
      ].join(" ")
    )
  }
  lines.push("-".repeat(120))

  const details: string[] = []
  for (const s of report.scenarios) {
    const d = scenarioDifferences(s)
    const failedChecks = s.checks.filter((c) => !c.ok)
    const schemaIssues = s.steps.filter((st) => st.schema_ok === false)
    const hasDiff = d.missing.length + d.other_type.length + d.extra.length > 0
    if (s.status === "passed" && !hasDiff) continue
    if (s.status === "skipped" && s.error === RUN_STOPPED) continue
    details.push(`* ${s.id} (${s.status}): ${s.title}`)
    if (s.error) details.push(`    ${s.status === "skipped" ? "skipped" : "error"}: ${s.error}`)
    for (const c of failedChecks) details.push(`    check "${c.name}": expected ${short(c.expected)}, got ${short(c.actual)}`)
    for (const st of schemaIssues) {
      for (const i of st.schema_issues ?? []) details.push(`    schema ${st.schema} rejected ${st.name} at ${i.path}: ${i.message}`)
    }
    for (const m of d.missing) details.push(`    missing field: ${m}`)
    for (const t of d.other_type) details.push(`    other type: ${t.path} is ${t.actual}, emulator answers ${t.expected}`)
    for (const e of d.extra) details.push(`    extra field (emulator lacks it): ${e}`)
    for (const n of s.notes) details.push(`    note: ${n}`)
  }
  if (details.length) lines.push(...details)

  const sm = report.summary
  if (report.stopped) lines.push(`STOPPED: ${report.stopped}`)
  lines.push(
    `${report.outcome.toUpperCase()}: ${sm.passed} passed, ${sm.failed} failed, ${sm.skipped} skipped${
      sm.refused ? `, ${sm.refused} refused` : ""
    }; ${sm.differences} shape difference(s) from the emulator`
  )
  return lines.join("\n")
}
