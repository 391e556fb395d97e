import { Agent, interceptors, request, type Dispatcher } from "undici"
import type { z } from "@medusajs/framework/zod"
import type { EndpointDef } from "./endpoints"
import { OdemeApiError, redact } from "./errors"
import { errorCode, isTimeout, thrownToApiError } from "./failure"
import { extractServiceMessage, parseJsonOrUndefined, parseResponse, readBody, type FailFn, type RawResponse } from "./response"
import { isRetryableStatus, retryPolicy } from "./retry"

export interface OdemeLogger {
  /** When present and false for "debug", the per-call trace is not even formatted (a poller pass makes thousands). */
  shouldLog?(level: "debug"): boolean
  debug?(msg: string): void
  warn?(msg: string): void
  error?(msg: string): void
}

export interface TransportOptions {
  /** Already normalized (no trailing slash). */
  baseUrl: string
  apiKey: string
  timeoutMs: number
  retries: number
  retryBaseDelayMs: number
  retryMaxDelayMs: number
  maxResponseBytes: number
  connections: number
  dispatcher?: Dispatcher
  logger?: OdemeLogger
}

const USER_AGENT = "medusa-payment-odeme-client"
/** Error bodies are read only for the service's message. */
const MAX_ERROR_BODY_BYTES = 64 * 1024
/** undici runs headers/body timeouts on a timer of about one second's resolution. */
const UNDICI_TIMER_SLACK_MS = 1_000

type RequestOptions = Parameters<typeof request>[1]

/**
 * HTTP to the service: one keep-alive undici Agent, undici's retry interceptor
 * for retry-safe endpoints only, a deadline per call, error mapping and
 * key-free logging. Endpoint methods (banks.ts, transfers.ts, …) sit on top.
 */
export class OdemeTransport {
  readonly baseUrl: string
  readonly #o: TransportOptions
  readonly #dispatcher: Dispatcher
  /** The same connections with undici's retry interceptor on top; never used for a create. */
  readonly #retrying: Dispatcher
  readonly #ownsDispatcher: boolean
  #closed = false

  constructor(options: TransportOptions) {
    this.#o = options
    this.baseUrl = options.baseUrl
    this.#ownsDispatcher = !options.dispatcher
    this.#dispatcher =
      options.dispatcher ??
      new Agent({
        keepAliveTimeout: 10_000,
        keepAliveMaxTimeout: 60_000,
        connections: options.connections,
        headersTimeout: options.timeoutMs,
        bodyTimeout: options.timeoutMs,
        connect: { timeout: options.timeoutMs },
      })
    // throwOnError: false hands the last answer (e.g. a 503 with the service's message) back instead of undici's own error.
    this.#retrying = this.#dispatcher.compose(interceptors.retry({ throwOnError: false }))
  }

  redact(text: string): string {
    return redact(text, [this.#o.apiKey])
  }

  log(level: "debug" | "warn" | "error", msg: string): void {
    const logger = this.#o.logger
    const fn = logger?.[level]
    if (typeof fn !== "function") return
    try {
      fn.call(logger, this.redact(msg))
    } catch {
      // a failing logger must not break a payment call
    }
  }

  /** Sends the request and checks a 2xx body against `schema`. */
  async call<S extends z.ZodType>(ep: EndpointDef, path: string, schema: S, body?: unknown): Promise<z.output<S>> {
    const fail: FailFn = (init) => new OdemeApiError({ endpoint: ep.name, method: ep.method, path: ep.template, secrets: [this.#o.apiKey], ...init })
    const raw = await this.#send(ep, path, body, fail).catch((err: unknown) => {
      if (err instanceof OdemeApiError) this.log("warn", `odeme ${ep.name} gave up: ${err.message}`)
      throw err
    })
    return parseResponse(raw, schema, fail)
  }

  /** Closes the connection pool if this transport created it. Idempotent. */
  async close(): Promise<void> {
    if (this.#closed) return
    this.#closed = true
    if (this.#ownsDispatcher) await this.#dispatcher.close()
  }

  async #send(ep: EndpointDef, path: string, body: unknown, fail: FailFn): Promise<RawResponse> {
    if (this.#closed) throw fail({ kind: "network", retryable: false, code: "CLIENT_CLOSED", detail: "client is closed", attempts: 1 })
    const { timeoutMs, retries, retryMaxDelayMs } = this.#o
    const retrying = ep.retrySafe && retries > 0
    // One attempt gets exactly timeoutMs, so a create that outlives it is "outcome unknown" at a known time.
    // Retried calls leave each attempt to undici's own timeouts, which fire up to a timer tick late.
    const deadlineMs = retrying ? (timeoutMs + UNDICI_TIMER_SLACK_MS) * (retries + 1) + retryMaxDelayMs * retries : timeoutMs
    // A timer cleared when the call ends, not AbortSignal.timeout: that one's timer stays pending for the
    // whole deadline and reaches the signal (with undici's listeners and the request they reach) through a
    // WeakRef, which V8's young-generation GC treats as strong, so finished calls outlived it as garbage
    // (the client alone, 10,000 calls at concurrency 20: 55 MB of heap growth before, 43 MB after).
    const deadline = new AbortController()
    const timer = setTimeout(() => deadline.abort(new DOMException("The operation was aborted due to timeout", "TimeoutError")), deadlineMs)
    timer.unref()
    const signal = deadline.signal
    const policy = retrying
      ? retryPolicy({
          retries,
          baseDelayMs: this.#o.retryBaseDelayMs,
          maxDelayMs: retryMaxDelayMs,
          signal,
          onRetry: (what, attempt, delay) => this.log("warn", `odeme ${ep.name} attempt ${attempt} failed (${what}); retrying in ${delay}ms`),
        })
      : undefined
    const attempts = () => policy?.attempts() ?? 1
    const started = Date.now()
    let status: number | undefined
    const trace = (tail: string) =>
      this.#o.logger?.shouldLog?.("debug") !== false &&
      this.log(
        "debug",
        `odeme ${ep.name} ${ep.method} ${ep.template} status=${status ?? "none"} attempt=${attempts()} durationMs=${Date.now() - started}${tail}`
      )

    const headers: Record<string, string> = { "api-key": this.#o.apiKey, accept: "application/json", "user-agent": USER_AGENT }
    const payload = body === undefined ? undefined : JSON.stringify(body)
    if (payload !== undefined) headers["content-type"] = "application/json"
    const options: RequestOptions & { retryOptions?: { retry: NonNullable<typeof policy>["retry"] } } = {
      dispatcher: retrying ? this.#retrying : this.#dispatcher,
      method: ep.method,
      headers,
      body: payload,
      signal,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    }
    if (policy) options.retryOptions = { retry: policy.retry }

    try {
      const res = await request(`${this.baseUrl}${path}`, options)
      status = res.statusCode
      const ok = status >= 200 && status < 300
      const text = await readBody(res.body, ok ? this.#o.maxResponseBytes : MAX_ERROR_BODY_BYTES)
      trace("")
      if (ok && text === undefined) {
        throw fail({ kind: "invalid_response", retryable: false, status, detail: "response body too large", attempts: attempts() })
      }
      if (ok) return { status, text: text ?? "", attempts: attempts() }
      throw fail({
        kind: "http",
        status,
        retryable: isRetryableStatus(status) && ep.retrySafe,
        serviceMessage: extractServiceMessage(parseJsonOrUndefined(text ?? "")),
        attempts: attempts(),
      })
    } catch (err) {
      if (err instanceof OdemeApiError) throw err
      trace(isTimeout(err, signal) ? " timeout" : ` error=${errorCode(err) ?? "unknown"}`)
      throw thrownToApiError(
        err,
        { retrySafe: ep.retrySafe, signal, deadlineMs, timeoutMs, status, attempts: attempts(), redact: (t) => this.redact(t) },
        fail
      )
    } finally {
      clearTimeout(timer)
    }
  }
}
