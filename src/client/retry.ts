import type { RetryHandler } from "undici"

export const DEFAULT_RETRY_BASE_DELAY_MS = 250
export const DEFAULT_RETRY_MAX_DELAY_MS = 4_000

/** The exponential backoff's ceiling: min(cap, base * 2^(retry-1)); `retry` is 1 for the first retry. The one backoff of the plugin. */
export function backoffCeiling(retry: number, baseDelayMs: number, maxDelayMs: number): number {
  const exp = Math.min(30, Math.max(0, retry - 1))
  return Math.min(maxDelayMs, Math.max(0, baseDelayMs) * 2 ** exp)
}

/**
 * "Full jitter" exponential backoff: a random delay in [0, backoffCeiling].
 * `retry` is 1 for the first retry. Jitter keeps the poller's many concurrent
 * checks from coming back to a struggling service in lockstep.
 */
export function backoffDelay(
  retry: number,
  baseDelayMs: number = DEFAULT_RETRY_BASE_DELAY_MS,
  maxDelayMs: number = DEFAULT_RETRY_MAX_DELAY_MS,
  random: () => number = Math.random
): number {
  return Math.floor(random() * backoffCeiling(retry, baseDelayMs, maxDelayMs))
}

/** HTTP statuses worth retrying on an idempotent request. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || (status >= 500 && status <= 599)
}

/** Parses a Retry-After header (seconds or HTTP date) into milliseconds. */
export function parseRetryAfter(value: string | string[] | undefined, now: number = Date.now()): number | undefined {
  const raw = Array.isArray(value) ? value[0] : value
  if (!raw) return undefined
  const trimmed = raw.trim()
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000
  const date = Date.parse(trimmed)
  if (Number.isNaN(date)) return undefined
  return Math.max(0, date - now)
}

/**
 * Connection failures and per-attempt timeouts that are worth another attempt.
 * Body timeouts are left out on purpose: once a 2xx head has arrived undici
 * can only resume with a Range request, which the service does not answer;
 * the stalled call surfaces as a timeout and the caller's next round asks again.
 */
const RETRYABLE_CODES = new Set([
  "ECONNRESET",
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "ENETDOWN",
  "ENETUNREACH",
  "EHOSTDOWN",
  "EHOSTUNREACH",
  "EPIPE",
  "ETIMEDOUT",
  "UND_ERR_SOCKET",
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_HEADERS_TIMEOUT",
])

export interface RetryPolicyInit {
  /** Extra attempts after the first one. */
  retries: number
  baseDelayMs: number
  maxDelayMs: number
  /** The whole call's deadline: no retry is waited for once it has fired. */
  signal: AbortSignal
  /** Called when an attempt failed and another one is scheduled; `attempt` is the failed one. */
  onRetry(what: string, attempt: number, delayMs: number): void
}

/**
 * The decision undici's retry interceptor asks for after each failed attempt
 * (`retryOptions.retry`): undici replays the request, this only says whether
 * and when. `attempts()` tells the caller how many were made.
 */
export function retryPolicy(init: RetryPolicyInit): { retry: RetryHandler.RetryCallback; attempts(): number } {
  let attempts = 1
  const retry: RetryHandler.RetryCallback = (err, _context, callback) => {
    const { statusCode, code, headers } = err as Error & { statusCode?: number; code?: string; headers?: Record<string, string | string[]> }
    const transient = statusCode !== undefined ? isRetryableStatus(statusCode) : code !== undefined && RETRYABLE_CODES.has(code)
    if (!transient || attempts > init.retries || init.signal.aborted) return callback(err)

    let delay = backoffDelay(attempts, init.baseDelayMs, init.maxDelayMs)
    const hint = statusCode !== undefined ? parseRetryAfter(headers?.["retry-after"]) : undefined
    if (hint !== undefined && hint > delay) delay = Math.min(hint, init.maxDelayMs)
    init.onRetry(statusCode !== undefined ? `HTTP ${statusCode}` : (code ?? "error"), attempts, delay)

    const timer = setTimeout(() => {
      init.signal.removeEventListener("abort", giveUp)
      attempts++
      callback(null)
    }, delay)
    // The deadline can fire during the wait: stop there and hand back the last failure.
    function giveUp() {
      clearTimeout(timer)
      callback(err)
    }
    init.signal.addEventListener("abort", giveUp, { once: true })
  }
  return { retry, attempts: () => attempts }
}
