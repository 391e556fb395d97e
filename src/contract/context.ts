import type { z } from "@medusajs/framework/zod"
import { redact, truncate } from "../client/errors"
import type { ContractHttp, RawAnswer } from "./http"
import type { CheckRecord, StepRecord } from "./report"
import { diffShape, observedShape, type Shape } from "./shape-diff"

/** The service said (or showed) that the key is a live key: the run stops at once. */
export class LiveKeyRefusal extends Error {}
/** The run cannot go on (e.g. the key is rejected); remaining scenarios are skipped. */
export class StopRun extends Error {}
/** The scenario cannot run because an earlier one did not produce what it needs. */
export class SkipScenario extends Error {}
/** The scenario failed; the message goes into the report. */
export class ScenarioFailure extends Error {}

/** Texts that mean "this is not a sandbox key" (English and Turkish). */
const LIVE_KEY_RE =
  /only (?:be )?(?:available|allowed|valid|usable|supported) (?:with|for|in) (?:a |the )?sandbox|sandbox[- ](?:keys? )?only|not a sandbox|\blive (?:api[- ])?key|production (?:api[- ])?key|canl[ıi] (?:mod|anahtar|ortam)|(?:sadece|yaln[ıi]zca) (?:sandbox|test)/i

export function looksLikeLiveKeyMessage(text: string | undefined): boolean {
  return typeof text === "string" && LIVE_KEY_RE.test(text)
}

/** `mode` values of verify that say sandbox/test. */
export function isSandboxMode(mode: unknown): boolean {
  return typeof mode === "string" && /sandbox|test/i.test(mode)
}

export function serviceMessage(text: string): string | undefined {
  try {
    const json = JSON.parse(text) as unknown
    if (json && typeof json === "object" && !Array.isArray(json)) {
      for (const key of ["message", "error", "error_message", "msg"]) {
        const v = (json as Record<string, unknown>)[key]
        if (typeof v === "string" && v.trim()) return v
      }
    }
  } catch {
    // not JSON
  }
  const stripped = text
    .replace(/<[^>]*>/g, " ")
    .replace(/\s+/g, " ")
    .trim()
  return stripped ? stripped : undefined
}

export interface Target {
  baseUrl: string
  apiKey: string
  apiId: string | number
}

export interface JsonStepOptions<S extends z.ZodType> {
  /** Step name in the report. */
  name: string
  method: "GET" | "POST"
  /** Path template for the report (no ids). */
  template: string
  /** Real path. */
  path: string
  body?: unknown
  schema: S
  schemaName: string
  shape: Shape
}

export interface JsonStepResult<S extends z.ZodType> {
  status: number
  /** The raw JSON body. */
  raw: unknown
  /** Parsed by the spec schema; undefined when the schema rejected it. */
  data: z.output<S> | undefined
}

export interface FormStepResult {
  status: number
  location?: string
  contentType: string
  text: string
}

const USER_AGENT = "medusa-payment-odeme-contract"

/** What a scenario uses: HTTP steps that record themselves, and checks. */
export class ScenarioContext {
  readonly steps: StepRecord[] = []
  readonly checks: CheckRecord[] = []
  readonly notes: string[] = []

  constructor(
    readonly target: Target,
    private readonly http: ContractHttp
  ) {}

  clean(text: string, max = 300): string {
    return truncate(redact(text, [this.target.apiKey]), max)
  }

  note(text: string): void {
    this.notes.push(this.clean(text, 400))
  }

  check(name: string, expected: unknown, actual: unknown, ok: boolean = Object.is(expected, actual)): boolean {
    this.checks.push({ name, ok, expected, actual })
    return ok
  }

  private async send(name: string, method: "GET" | "POST", template: string, path: string, headers: Record<string, string>, body?: string) {
    try {
      return await this.http.send({ method, path, headers, body })
    } catch (err) {
      this.steps.push({ name, method, path: template, http_status: null, duration_ms: 0, missing: [], other_type: [], extra: [], note: "no answer" })
      throw new ScenarioFailure(this.clean(`${method} ${template}: ${(err as Error).message}`))
    }
  }

  private apiHeaders(json: boolean): Record<string, string> {
    const h: Record<string, string> = { "api-key": this.target.apiKey, accept: "application/json", "user-agent": USER_AGENT }
    if (json) h["content-type"] = "application/json"
    return h
  }

  /**
   * An `/api` call whose answer must be 2xx JSON. The raw body is parsed with
   * the contract's own reading of the spec (spec-schemas.ts) and compared with
   * the emulator's shape; both are
   * recorded, and a mismatch fails the scenario without throwing, so the
   * remaining checks still run. Non-2xx answers throw (live-key texts stop the run).
   */
  async json<S extends z.ZodType>(o: JsonStepOptions<S>): Promise<JsonStepResult<S>> {
    const body = o.body === undefined ? undefined : JSON.stringify(o.body)
    const ans = await this.send(o.name, o.method, o.template, o.path, this.apiHeaders(body !== undefined), body)
    const step = this.record(o.name, o.method, o.template, ans)
    step.schema = o.schemaName
    if (ans.status < 200 || ans.status > 299) {
      this.raiseForStatus(o.method, o.template, ans)
    }
    let raw: unknown
    try {
      raw = JSON.parse(ans.text)
    } catch {
      step.schema_ok = false
      step.schema_issues = [{ path: "(root)", message: ans.text.trim() ? "body is not JSON" : "empty body" }]
      throw new ScenarioFailure(`${o.method} ${o.template}: HTTP ${ans.status} but the body is not JSON`)
    }
    step.observed_shape = observedShape(raw)
    const diff = diffShape(o.shape, raw)
    step.missing = diff.missing
    step.other_type = diff.other_type
    step.extra = diff.extra
    const parsed = o.schema.safeParse(raw)
    step.schema_ok = parsed.success
    if (!parsed.success) {
      step.schema_issues = parsed.error.issues.slice(0, 10).map((i) => ({
        path: i.path.length ? i.path.join(".") : "(root)",
        message: this.clean(i.message, 200),
      }))
    }
    return { status: ans.status, raw, data: parsed.success ? parsed.data : undefined }
  }

  /** Records one answered exchange as a step (differences are filled in by the caller). */
  private record(name: string, method: string, template: string, ans: RawAnswer): StepRecord {
    const step: StepRecord = {
      name,
      method,
      path: template,
      http_status: ans.status,
      duration_ms: ans.durationMs,
      missing: [],
      other_type: [],
      extra: [],
    }
    this.steps.push(step)
    return step
  }

  /** An `/api` call where any status is acceptable (probes). The body is not kept. */
  async probe(name: string, method: "GET" | "POST", template: string, path: string): Promise<RawAnswer> {
    const ans = await this.send(name, method, template, path, this.apiHeaders(false))
    this.record(name, method, template, ans)
    return ans
  }

  /** A browser-like form POST; redirects are not followed. */
  async form(name: string, template: string, path: string, fields: Record<string, string>): Promise<FormStepResult> {
    const ans = await this.send(
      name,
      "POST",
      template,
      path,
      {
        "content-type": "application/x-www-form-urlencoded",
        accept: "text/html,application/xhtml+xml",
        "user-agent": USER_AGENT,
      },
      new URLSearchParams(fields).toString()
    )
    this.record(name, "POST", template, ans)
    return { status: ans.status, location: ans.headers.location, contentType: ans.headers["content-type"] ?? "", text: ans.text }
  }

  private raiseForStatus(method: string, template: string, ans: RawAnswer): never {
    const msg = serviceMessage(ans.text)
    const shown = msg ? `: ${this.clean(msg, 200)}` : ""
    if (looksLikeLiveKeyMessage(msg)) {
      throw new LiveKeyRefusal(`${method} ${template} answered HTTP ${ans.status}${shown}; this looks like a live API key`)
    }
    if (ans.status === 401) {
      throw new StopRun(`${method} ${template} answered HTTP 401${shown}; check ODEME_CONTRACT_API_KEY`)
    }
    throw new ScenarioFailure(`${method} ${template} answered HTTP ${ans.status}${shown}`)
  }
}
