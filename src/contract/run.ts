import { existsSync, readFileSync } from "node:fs"
import { dirname, join, resolve } from "node:path"
import { redact, truncate } from "../client/errors"
import { normalizeBaseUrl } from "../client/checkout"
import { LiveKeyRefusal, ScenarioContext, ScenarioFailure, SkipScenario, StopRun } from "./context"
import { ContractHttp } from "./http"
import { formatReport, RUN_STOPPED, summarize, writeReport, type ContractReport, type ScenarioResult, type ScenarioStatus } from "./report"
import { newSharedState, SCENARIOS, type Scenario } from "./scenarios"

export interface RunContractOptions {
  baseUrl: string
  apiKey: string
  apiId: string | number
  /** Per request, default 15 000 ms. */
  timeoutMs?: number
  /** Default: all of SCENARIOS. */
  scenarios?: Scenario[]
  /** Called after each scenario (progress output). */
  onScenario?: (result: ScenarioResult) => void
}

function packageVersion(): string {
  let dir = __dirname
  for (let i = 0; i < 6; i++) {
    const file = join(dir, "package.json")
    if (existsSync(file)) {
      try {
        const pkg = JSON.parse(readFileSync(file, "utf8")) as { name?: string; version?: string }
        if (pkg.name === "medusa-payment-odeme" && pkg.version) return pkg.version
      } catch {
        // keep looking
      }
    }
    dir = dirname(dir)
  }
  return "unknown"
}

function statusOf(ctx: ScenarioContext): ScenarioStatus {
  const bad = ctx.checks.some((c) => !c.ok) || ctx.steps.some((s) => s.schema_ok === false || s.missing.length > 0 || s.other_type.length > 0)
  return bad ? "failed" : "passed"
}

/**
 * Runs every scenario against `baseUrl` and returns the report. Used by
 * `npm run test:contract` (real sandbox) and by the unit spec (emulator), so
 * both go through exactly the same code. Never throws for service behaviour;
 * a live key ends the run with outcome "refused".
 */
export async function runContract(options: RunContractOptions): Promise<ContractReport> {
  const baseUrl = normalizeBaseUrl(options.baseUrl)
  if (typeof options.apiKey !== "string" || options.apiKey.trim() === "") throw new TypeError("apiKey is required")
  const target = { baseUrl, apiKey: options.apiKey, apiId: options.apiId }
  const secrets = [options.apiKey]
  const http = new ContractHttp(baseUrl, options.timeoutMs ?? 15_000)
  const shared = newSharedState()
  const results: ScenarioResult[] = []
  let stopped: string | undefined
  let refused = false

  try {
    for (const sc of options.scenarios ?? SCENARIOS) {
      if (stopped) {
        const r: ScenarioResult = {
          id: sc.id,
          title: sc.title,
          status: "skipped",
          duration_ms: 0,
          steps: [],
          checks: [],
          notes: [],
          error: RUN_STOPPED,
        }
        results.push(r)
        options.onScenario?.(r)
        continue
      }
      const ctx = new ScenarioContext(target, http)
      const started = Date.now()
      let status: ScenarioStatus
      let error: string | undefined
      try {
        await sc.run(ctx, shared)
        status = statusOf(ctx)
      } catch (err) {
        const msg = truncate(redact(err instanceof Error ? err.message : String(err), secrets), 400)
        if (err instanceof LiveKeyRefusal) {
          status = "refused"
          stopped = msg
          refused = true
        } else if (err instanceof StopRun) {
          status = "failed"
          stopped = msg
        } else if (err instanceof SkipScenario) {
          status = "skipped"
        } else if (err instanceof ScenarioFailure) {
          status = "failed"
        } else {
          status = "failed"
        }
        error =
          err instanceof ScenarioFailure || err instanceof SkipScenario || err instanceof LiveKeyRefusal || err instanceof StopRun
            ? msg
            : `unexpected error: ${msg}`
      }
      const r: ScenarioResult = {
        id: sc.id,
        title: sc.title,
        status,
        duration_ms: Date.now() - started,
        steps: ctx.steps,
        checks: ctx.checks,
        notes: ctx.notes,
        ...(error ? { error } : {}),
      }
      results.push(r)
      options.onScenario?.(r)
    }
  } finally {
    await http.close()
  }

  const summary = summarize(results)
  return {
    tool: "medusa-payment-odeme contract test",
    version: packageVersion(),
    generated_at: new Date().toISOString(),
    target: { base_url: redact(baseUrl, secrets), node: process.version },
    expectation: "emulator answer shapes (src/contract/expectations.ts)",
    outcome: refused ? "refused" : summary.passed === summary.total ? "passed" : "failed",
    ...(stopped ? { stopped } : {}),
    summary,
    scenarios: results,
  }
}

export const ENV = {
  baseUrl: "ODEME_CONTRACT_BASE_URL",
  apiKey: "ODEME_CONTRACT_API_KEY",
  apiId: "ODEME_CONTRACT_API_ID",
  mode: "ODEME_CONTRACT_MODE",
  report: "ODEME_CONTRACT_REPORT",
  timeout: "ODEME_CONTRACT_TIMEOUT_MS",
} as const

export interface MainIo {
  out(line: string): void
  err(line: string): void
  cwd: string
}

/**
 * `npm run test:contract`. Exit codes: 0 passed or skipped (no keys),
 * 1 a scenario failed, 2 refused (live mode/key) or bad configuration.
 */
export async function main(
  env: NodeJS.ProcessEnv = process.env,
  io: MainIo = { out: (l) => console.log(l), err: (l) => console.error(l), cwd: process.cwd() }
): Promise<number> {
  const mode = (env[ENV.mode] ?? "").trim().toLowerCase()
  if (mode === "live") {
    io.err(`contract tests refused: ${ENV.mode}=live. They only ever run against the sandbox, with a sandbox API key.`)
    return 2
  }
  if (mode !== "" && mode !== "sandbox") {
    io.err(`contract tests refused: ${ENV.mode} must be "sandbox" or unset (got "${truncate(mode, 40)}").`)
    return 2
  }
  const missing = [ENV.baseUrl, ENV.apiKey, ENV.apiId].filter((n) => !(env[n] ?? "").trim())
  if (missing.length) {
    const all = `${ENV.baseUrl}, ${ENV.apiKey} and ${ENV.apiId}`
    const what = missing.length === 3 ? `set ${all} to run them` : `${missing.join(", ")} not set; they need ${all}`
    io.out(`contract tests skipped: no sandbox configured (${what}; see src/contract/README.md)`)
    return 0
  }
  const apiKey = env[ENV.apiKey]!.trim()
  const apiId = env[ENV.apiId]!.trim()
  let baseUrl: string
  try {
    baseUrl = normalizeBaseUrl(env[ENV.baseUrl]!)
  } catch (err) {
    io.err(`contract tests not run: ${ENV.baseUrl} ${(err as Error).message.replace(/^Odeme baseUrl /, "")}`)
    return 2
  }
  if (!/^\d+$/.test(apiId)) {
    io.err(`contract tests not run: ${ENV.apiId} must be an integer (the api_id of the sandbox access)`)
    return 2
  }
  const timeoutRaw = env[ENV.timeout]
  const timeoutMs = timeoutRaw && /^\d+$/.test(timeoutRaw) && Number(timeoutRaw) > 0 ? Number(timeoutRaw) : undefined

  io.err(`[contract] running ${SCENARIOS.length} scenarios against ${baseUrl} (sandbox)`)
  const report = await runContract({
    baseUrl,
    apiKey,
    apiId,
    timeoutMs,
    onScenario: (r) => r.error !== RUN_STOPPED && io.err(`[contract] ${r.id}: ${r.status}${r.error ? ` (${r.error})` : ""} ${r.duration_ms} ms`),
  })
  const file = resolve(io.cwd, env[ENV.report]?.trim() || "contract-report.json")
  writeReport(file, report, [apiKey])
  io.out(redact(formatReport(report), [apiKey]))
  io.out(`Report written to ${file}${report.outcome === "passed" ? "" : " (attach it to a bug report; it holds no API key)"}`)
  if (report.outcome === "refused") {
    io.err(`contract tests REFUSED and stopped: ${report.stopped}. Use a sandbox API key; nothing more was sent.`)
    return 2
  }
  return report.outcome === "passed" ? 0 : 1
}
