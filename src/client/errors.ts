/**
 * The one error type thrown by the Odeme service client.
 *
 * It never carries the API key: every text that reaches it is passed through
 * `redact()` first, the original undici error is never attached as `cause`
 * (undici errors can reference request options, headers included), and
 * `toJSON()` returns only the safe fields listed below.
 */

export type OdemeErrorKind = "http" | "timeout" | "network" | "invalid_response"

export const REDACTED = "[redacted]"

/** Longest service message kept on an error. */
export const MAX_SERVICE_MESSAGE_LENGTH = 500

/**
 * Replaces every occurrence of each secret (and its URL-encoded form) with
 * "[redacted]". Secrets shorter than 4 characters are still redacted; empty
 * ones are ignored.
 */
export function redact(text: string, secrets: ReadonlyArray<string | undefined | null>): string {
  let out = String(text)
  for (const secret of secrets) {
    if (typeof secret !== "string" || secret.length === 0) continue
    const forms = new Set<string>([secret])
    try {
      forms.add(encodeURIComponent(secret))
    } catch {
      // lone surrogates cannot be URI-encoded; the raw form is still redacted
    }
    for (const form of forms) {
      if (form && out.includes(form)) out = out.split(form).join(REDACTED)
    }
  }
  return out
}

export function truncate(text: string, max: number): string {
  if (text.length <= max) return text
  return text.slice(0, Math.max(0, max - 1)) + "…"
}

export interface OdemeApiErrorInit {
  /** Stable operation name, e.g. "createBankTransfer". */
  endpoint: string
  /** HTTP method of the operation. */
  method: string
  /** Path template, e.g. "/api/pay/bank_transfer/uuid/{uuid}" (never the real URL or query). */
  path: string
  kind: OdemeErrorKind
  retryable: boolean
  status?: number
  serviceMessage?: string
  field?: string
  /** Low-level error code (e.g. "ECONNREFUSED", "UND_ERR_HEADERS_TIMEOUT"). */
  code?: string
  /** Short, redacted technical detail (network error text, zod issue message). */
  detail?: string
  /** Number of attempts that were made. */
  attempts?: number
  /** Secrets to strip from every text of the error (the client passes its API key). */
  secrets?: ReadonlyArray<string | undefined | null>
}

/** The safe fields of an error, as `toJSON()` returns them (never the secrets). */
export type OdemeApiErrorJSON = { name: "OdemeApiError"; message: string } & Omit<OdemeApiErrorInit, "secrets">

function describe(init: OdemeApiErrorInit, serviceMessage: string | undefined, detail: string | undefined): string {
  let reason: string
  switch (init.kind) {
    case "http":
      reason = `HTTP ${init.status ?? "error"}`
      break
    case "timeout":
      reason = init.retryable ? "request timed out" : "request timed out (outcome unknown)"
      break
    case "network":
      reason = `network error${init.code ? ` (${init.code})` : ""}`
      break
    case "invalid_response":
      reason = `invalid response${init.field ? ` at ${init.field}` : ""}${detail ? `: ${detail}` : ""}`
      break
  }
  const tail = serviceMessage ? `: ${serviceMessage}` : ""
  return `Odeme ${init.endpoint} failed: ${reason}${tail}`
}

export class OdemeApiError extends Error {
  readonly endpoint: string
  readonly method: string
  readonly path: string
  readonly kind: OdemeErrorKind
  readonly retryable: boolean
  readonly status?: number
  readonly serviceMessage?: string
  readonly field?: string
  readonly code?: string
  readonly detail?: string
  readonly attempts?: number

  constructor(init: OdemeApiErrorInit) {
    const secrets = init.secrets ?? []
    const clean = (v: string | undefined, max: number): string | undefined =>
      v === undefined || v === null ? undefined : truncate(redact(String(v), secrets), max)
    const serviceMessage = clean(init.serviceMessage, MAX_SERVICE_MESSAGE_LENGTH)
    const detail = clean(init.detail, 300)
    // The message is redacted before super() so the captured stack is clean too.
    super(redact(describe(init, serviceMessage, detail), secrets))
    this.name = "OdemeApiError"
    this.endpoint = redact(init.endpoint, secrets)
    this.method = init.method
    this.path = redact(init.path, secrets)
    this.kind = init.kind
    this.retryable = init.retryable
    if (init.status !== undefined) this.status = init.status
    if (serviceMessage !== undefined) this.serviceMessage = serviceMessage
    if (init.field !== undefined) this.field = clean(init.field, 200)
    if (init.code !== undefined) this.code = clean(init.code, 80)
    if (detail !== undefined) this.detail = detail
    if (init.attempts !== undefined) this.attempts = init.attempts
    Object.setPrototypeOf(this, new.target.prototype)
  }

  toJSON(): OdemeApiErrorJSON {
    const out: OdemeApiErrorJSON = {
      name: "OdemeApiError",
      message: this.message,
      endpoint: this.endpoint,
      method: this.method,
      path: this.path,
      kind: this.kind,
      retryable: this.retryable,
    }
    if (this.status !== undefined) out.status = this.status
    if (this.serviceMessage !== undefined) out.serviceMessage = this.serviceMessage
    if (this.field !== undefined) out.field = this.field
    if (this.code !== undefined) out.code = this.code
    if (this.detail !== undefined) out.detail = this.detail
    if (this.attempts !== undefined) out.attempts = this.attempts
    return out
  }
}

export function isOdemeApiError(err: unknown): err is OdemeApiError {
  return err instanceof OdemeApiError
}
