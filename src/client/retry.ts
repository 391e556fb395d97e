import { setTimeout as sleepTimer } from "node:timers/promises"

export const DEFAULT_RETRY_BASE_DELAY_MS = 250
export const DEFAULT_RETRY_MAX_DELAY_MS = 4_000

/**
 * "Full jitter" exponential backoff: a random delay in [0, min(cap, base * 2^(retry-1))].
 * `retry` is 1 for the first retry.
 */
export function backoffDelay(
  retry: number,
  baseDelayMs: number = DEFAULT_RETRY_BASE_DELAY_MS,
  maxDelayMs: number = DEFAULT_RETRY_MAX_DELAY_MS,
  random: () => number = Math.random
): number {
  const exp = Math.min(30, Math.max(0, retry - 1))
  const ceiling = Math.min(maxDelayMs, Math.max(0, baseDelayMs) * 2 ** exp)
  return Math.floor(random() * ceiling)
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

export function sleep(ms: number): Promise<void> {
  return ms > 0 ? sleepTimer(ms).then(() => undefined) : Promise.resolve()
}

export interface RetryOptions {
  /** Extra attempts after the first one. */
  retries: number
  baseDelayMs?: number
  maxDelayMs?: number
  /** Decides whether a failed attempt may be repeated. */
  shouldRetry(error: unknown, attempt: number): boolean
  /** Minimum delay requested by the failure itself (e.g. Retry-After), capped at maxDelayMs. */
  delayHintMs?(error: unknown): number | undefined
  onRetry?(error: unknown, attempt: number, delayMs: number): void
  random?: () => number
  sleep?: (ms: number) => Promise<void>
}

/** Runs `fn(attempt)` (attempt starts at 1) and repeats it with backoff while `shouldRetry` allows. */
export async function withRetry<T>(fn: (attempt: number) => Promise<T>, options: RetryOptions): Promise<T> {
  const retries = Math.max(0, Math.floor(options.retries))
  const base = options.baseDelayMs ?? DEFAULT_RETRY_BASE_DELAY_MS
  const cap = options.maxDelayMs ?? DEFAULT_RETRY_MAX_DELAY_MS
  const wait = options.sleep ?? sleep
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn(attempt)
    } catch (error) {
      if (attempt > retries || !options.shouldRetry(error, attempt)) throw error
      let delay = backoffDelay(attempt, base, cap, options.random)
      const hint = options.delayHintMs?.(error)
      if (hint !== undefined && hint > delay) delay = Math.min(hint, cap)
      options.onRetry?.(error, attempt, delay)
      await wait(delay)
    }
  }
}
