import { truncate, type OdemeApiError } from "./errors"
import type { FailFn } from "./response"

/** Connection errors after which the request certainly never reached the service. */
const NOT_SENT_CODES = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH"])
/** undici's own per-attempt timeouts (the whole call's deadline is the AbortSignal). */
const TIMEOUT_CODES = new Set(["UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT", "UND_ERR_CONNECT_TIMEOUT", "ETIMEDOUT"])

export function errorCode(err: unknown): string | undefined {
  if (err && typeof err === "object") {
    const code = (err as { code?: unknown }).code
    if (typeof code === "string") return code
    const cause = (err as { cause?: unknown }).cause
    if (cause && typeof cause === "object") {
      const inner = (cause as { code?: unknown }).code
      if (typeof inner === "string") return inner
    }
  }
  return undefined
}

function errorText(err: unknown): string {
  if (err instanceof Error) return `${err.name}: ${err.message}`
  return typeof err === "string" ? err : "unknown error"
}

export interface ThrownContext {
  retrySafe: boolean
  /** The call's deadline; when it has fired, whatever undici threw is a timeout. */
  signal: AbortSignal
  deadlineMs: number
  timeoutMs: number
  status?: number
  attempts: number
  redact(text: string): string
}

export function isTimeout(err: unknown, signal: AbortSignal): boolean {
  const code = errorCode(err)
  return signal.aborted || (code !== undefined && TIMEOUT_CODES.has(code))
}

/**
 * Turns what undici threw into the client's error. A call that is not
 * retry-safe and timed out is `retryable: false` ("outcome unknown"): the
 * service may have acted on it, and the plugin must not ask again. A network
 * error on such a call is retryable only when the request never left.
 */
export function thrownToApiError(err: unknown, ctx: ThrownContext, fail: FailFn): OdemeApiError {
  const code = errorCode(err)
  if (isTimeout(err, ctx.signal)) {
    return fail({
      kind: "timeout",
      retryable: ctx.retrySafe,
      status: ctx.status,
      code: ctx.signal.aborted ? "TIMEOUT" : code,
      detail: ctx.signal.aborted ? `no complete response within ${ctx.deadlineMs}ms` : `no response within ${ctx.timeoutMs}ms`,
      attempts: ctx.attempts,
    })
  }
  const notSent = code !== undefined && NOT_SENT_CODES.has(code)
  return fail({
    kind: "network",
    retryable: ctx.retrySafe || notSent,
    status: ctx.status,
    code,
    detail: truncate(ctx.redact(errorText(err)), 200),
    attempts: ctx.attempts,
  })
}
