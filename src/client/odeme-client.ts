import { Agent, request, type Dispatcher } from "undici"
import { z } from "zod"
import { formatAmount, type AmountInput } from "./amount"
import {
  buildQuickCheckoutForm as buildQuickCheckoutFormFn,
  hostedCheckoutUrl as hostedCheckoutUrlFn,
  normalizeBaseUrl,
  type QuickCheckoutForm,
  type QuickCheckoutFormInput,
} from "./checkout"
import { OdemeApiError, redact, truncate, type OdemeApiErrorInit, type OdemeErrorKind } from "./errors"
import {
  DEFAULT_RETRY_BASE_DELAY_MS,
  DEFAULT_RETRY_MAX_DELAY_MS,
  isRetryableStatus,
  parseRetryAfter,
  withRetry,
} from "./retry"
import {
  BankGroupListResponseSchema,
  BankListResponseSchema,
  CardPaymentRecordSchema,
  CreateBankTransferResultSchema,
  LooseObjectSchema,
  TransferRecordResponseSchema,
  VerifyResultSchema,
  type BankAccount,
  type BankGroup,
  type CardPaymentRecord,
  type CreateBankTransferResult,
  type TransferRecord,
  type VerifyResult,
} from "./schemas"

export interface OdemeLogger {
  debug?(msg: string): void
  warn?(msg: string): void
  error?(msg: string): void
}

export interface OdemeClientOptions {
  /** e.g. https://service.example or http://127.0.0.1:4010; trailing slash tolerated. */
  baseUrl: string
  apiKey: string
  /** API access id; needed for Quick Checkout forms. */
  apiId?: number | string
  /** Per attempt, default 10 000 ms. */
  timeoutMs?: number
  /** Extra attempts for retry-safe calls, default 2. */
  retries?: number
  /** Default 250 ms; full-jitter exponential backoff. */
  retryBaseDelayMs?: number
  /** Backoff cap, default 4 000 ms. */
  retryMaxDelayMs?: number
  /** Largest response body read, default 1 MiB. */
  maxResponseBytes?: number
  /** Tests pass a MockAgent; default: one keep-alive undici Agent per client. */
  dispatcher?: Dispatcher
  logger?: OdemeLogger
}

/** Anything `formatAmount` accepts that is not a plain number/string (Medusa BigNumber, raw `{ value, precision }`). */
export type BigNumberLike = Exclude<AmountInput, number | string | bigint>

export type BankTransferCurrency = "TRY" | "USD" | "EUR"
export const BANK_TRANSFER_CURRENCIES: readonly BankTransferCurrency[] = ["TRY", "USD", "EUR"]

export interface CreateBankTransferInput {
  bank_id: number
  amount: string | number | BigNumberLike
  currency: BankTransferCurrency
  order_id: string
  customer_name: string
  client_ip: string
  customer_email?: string
  customer_phone?: string
  sandbox_result?: "successful" | "pending" | "failed"
}

export interface VerifyNotificationInput {
  order_id: string
  uuid: string
  status: string
  hash: string
}

type HttpMethod = "GET" | "POST"

interface EndpointDef {
  name: string
  method: HttpMethod
  /** Path template, used in errors and logs. */
  template: string
  /** Idempotent: may be repeated automatically. */
  retrySafe: boolean
}

/** The service operations, with stable names used in errors and logs. */
export const ODEME_ENDPOINTS = {
  listBankGroups: { name: "listBankGroups", method: "GET", template: "/api/pay/bank_transfer/bank-group/list", retrySafe: true },
  listBanks: { name: "listBanks", method: "GET", template: "/api/pay/bank_transfer/get/banks/{bank_group_id}", retrySafe: true },
  createBankTransfer: { name: "createBankTransfer", method: "POST", template: "/api/pay/bank_transfer", retrySafe: false },
  getTransferByTrackingNo: { name: "getTransferByTrackingNo", method: "GET", template: "/api/pay/bank_transfer/control/{payment_id}", retrySafe: true },
  getTransferByUuid: { name: "getTransferByUuid", method: "GET", template: "/api/pay/bank_transfer/uuid/{uuid}", retrySafe: true },
  createCardPayment: { name: "createCardPayment", method: "POST", template: "/api/pay/credit_card", retrySafe: false },
  verifyNotification: { name: "verifyNotification", method: "POST", template: "/api/sale/webhook/verify", retrySafe: true },
  saleInfo: { name: "saleInfo", method: "POST", template: "/api/sale/info", retrySafe: true },
  saleInfoTransaction: { name: "saleInfoTransaction", method: "POST", template: "/api/sale/info/transaction", retrySafe: true },
} as const satisfies Record<string, EndpointDef>

/** Connection errors after which the request certainly never reached the service. */
const NOT_SENT_CODES = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH"])
const TIMEOUT_CODES = new Set(["UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT", "UND_ERR_CONNECT_TIMEOUT", "ETIMEDOUT"])

const USER_AGENT = "medusa-payment-odeme-client"

function requirePathSegment(value: unknown, what: string): string {
  if (typeof value === "number" && Number.isFinite(value)) return String(value)
  if (typeof value !== "string" || value.trim() === "") throw new TypeError(`${what} is required`)
  return value.trim()
}

function requireString(value: unknown, what: string): string {
  if (typeof value === "number" && Number.isFinite(value)) return String(value)
  if (typeof value !== "string" || value.trim() === "") throw new TypeError(`${what} is required`)
  return value
}

function errorCode(err: unknown): string | undefined {
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

/** Pulls the service's message out of a JSON error body. */
function extractServiceMessage(json: unknown): string | undefined {
  if (!json || typeof json !== "object" || Array.isArray(json)) return undefined
  const obj = json as Record<string, unknown>
  for (const key of ["message", "error", "error_message", "msg"]) {
    const v = obj[key]
    if (typeof v === "string" && v.trim()) return v
    if (v && typeof v === "object" && typeof (v as { message?: unknown }).message === "string") {
      return (v as { message: string }).message
    }
  }
  if (Array.isArray(obj.errors) && obj.errors.length) {
    const parts = obj.errors
      .map((e) => (typeof e === "string" ? e : e && typeof e === "object" ? (e as { message?: unknown }).message : undefined))
      .filter((e): e is string => typeof e === "string")
    if (parts.length) return parts.join("; ")
  }
  return undefined
}

interface RawResponse {
  status: number
  text: string
  attempt: number
}

/**
 * Client for the Odeme service API (spec §4). Retry-safe calls (all GETs,
 * webhook verify, sale info) are retried on network errors, timeouts, 408,
 * 429 and 5xx; transfer creation and card payment are never repeated.
 */
export class OdemeClient {
  readonly baseUrl: string
  readonly apiId?: number | string
  readonly #apiKey: string
  readonly #dispatcher: Dispatcher
  readonly #ownsDispatcher: boolean
  readonly #timeoutMs: number
  readonly #retries: number
  readonly #retryBaseDelayMs: number
  readonly #retryMaxDelayMs: number
  readonly #maxResponseBytes: number
  readonly #logger?: OdemeLogger
  #closed = false

  constructor(options: OdemeClientOptions) {
    if (!options || typeof options !== "object") throw new TypeError("OdemeClient options are required")
    this.baseUrl = normalizeBaseUrl(options.baseUrl)
    if (typeof options.apiKey !== "string" || options.apiKey.trim() === "") {
      throw new TypeError("OdemeClient apiKey is required")
    }
    this.#apiKey = options.apiKey
    if (options.apiId !== undefined && options.apiId !== null && String(options.apiId).trim() !== "") {
      this.apiId = options.apiId
    }
    this.#timeoutMs = positiveOr(options.timeoutMs, 10_000)
    this.#retries = Math.max(0, Math.floor(nonNegativeOr(options.retries, 2)))
    this.#retryBaseDelayMs = nonNegativeOr(options.retryBaseDelayMs, DEFAULT_RETRY_BASE_DELAY_MS)
    this.#retryMaxDelayMs = nonNegativeOr(options.retryMaxDelayMs, DEFAULT_RETRY_MAX_DELAY_MS)
    this.#maxResponseBytes = positiveOr(options.maxResponseBytes, 1024 * 1024)
    this.#logger = options.logger
    if (options.dispatcher) {
      this.#dispatcher = options.dispatcher
      this.#ownsDispatcher = false
    } else {
      this.#dispatcher = new Agent({
        keepAliveTimeout: 10_000,
        keepAliveMaxTimeout: 60_000,
        connections: 16,
        headersTimeout: this.#timeoutMs,
        bodyTimeout: this.#timeoutMs,
        connect: { timeout: this.#timeoutMs },
      })
      this.#ownsDispatcher = true
    }
  }

  /** Keeps the key out of console.log / util.inspect output. */
  [Symbol.for("nodejs.util.inspect.custom")](): string {
    return `OdemeClient { baseUrl: '${this.baseUrl}' }`
  }

  toJSON(): { baseUrl: string; apiId?: number | string } {
    return this.apiId === undefined ? { baseUrl: this.baseUrl } : { baseUrl: this.baseUrl, apiId: this.apiId }
  }

  // ---------------------------------------------------------------- bank transfer

  /** §4.3 */
  async listBankGroups(): Promise<BankGroup[]> {
    const ep = ODEME_ENDPOINTS.listBankGroups
    const res = await this.#call(ep, ep.template, BankGroupListResponseSchema)
    return res.result
  }

  /** §4.4 */
  async listBanks(bankGroupId: number): Promise<BankAccount[]> {
    const id = Number(bankGroupId)
    if (!Number.isSafeInteger(id) || id < 0) throw new TypeError("bankGroupId must be an integer")
    const ep = ODEME_ENDPOINTS.listBanks
    const res = await this.#call(ep, `/api/pay/bank_transfer/get/banks/${id}`, BankListResponseSchema)
    return res.result
  }

  /** §4.5. Never retried: a timeout means the outcome is unknown (`retryable: false`). */
  async createBankTransfer(input: CreateBankTransferInput): Promise<CreateBankTransferResult> {
    if (!input || typeof input !== "object") throw new TypeError("createBankTransfer input is required")
    const bankId = Number(input.bank_id)
    if (!Number.isSafeInteger(bankId) || bankId <= 0) throw new TypeError("bank_id must be a positive integer")
    const amount = formatAmount(input.amount as AmountInput)
    if (amount.startsWith("-") || amount === "0.00") throw new TypeError("amount must be greater than zero")
    const currency = requireString(input.currency, "currency").trim().toUpperCase() as BankTransferCurrency
    if (!BANK_TRANSFER_CURRENCIES.includes(currency)) {
      throw new TypeError(`currency must be one of ${BANK_TRANSFER_CURRENCIES.join(", ")}`)
    }
    const body: Record<string, unknown> = {
      bank_id: bankId,
      amount,
      currency,
      order_id: requireString(input.order_id, "order_id"),
      customer_name: requireString(input.customer_name, "customer_name"),
      client_ip: requireString(input.client_ip, "client_ip"),
    }
    if (input.customer_email !== undefined && input.customer_email !== null) body.customer_email = input.customer_email
    if (input.customer_phone !== undefined && input.customer_phone !== null) body.customer_phone = input.customer_phone
    if (input.sandbox_result !== undefined) {
      if (!["successful", "pending", "failed"].includes(input.sandbox_result)) {
        throw new TypeError("sandbox_result must be successful, pending or failed")
      }
      body.sandbox_result = input.sandbox_result
    }
    const ep = ODEME_ENDPOINTS.createBankTransfer
    return this.#call(ep, ep.template, CreateBankTransferResultSchema, body)
  }

  /**
   * §4.6 control endpoint. Live it expects the tracking number (`br_tracking_no`);
   * use `getTransferByUuid` for the `payment_id` returned on creation.
   */
  async getTransferByTrackingNo(
    trackingNo: string,
    opts: { sandboxResult?: "successful" | "failed" } = {}
  ): Promise<TransferRecord> {
    const id = requirePathSegment(trackingNo, "trackingNo")
    let path = `/api/pay/bank_transfer/control/${encodeURIComponent(id)}`
    if (opts.sandboxResult !== undefined) {
      if (opts.sandboxResult !== "successful" && opts.sandboxResult !== "failed") {
        throw new TypeError("sandboxResult must be successful or failed")
      }
      path += `?sandbox_result=${opts.sandboxResult}`
    }
    const res = await this.#call(ODEME_ENDPOINTS.getTransferByTrackingNo, path, TransferRecordResponseSchema)
    return res.result
  }

  /** §4.6 uuid endpoint. */
  async getTransferByUuid(uuid: string): Promise<TransferRecord> {
    const id = requirePathSegment(uuid, "uuid")
    const path = `/api/pay/bank_transfer/uuid/${encodeURIComponent(id)}`
    const res = await this.#call(ODEME_ENDPOINTS.getTransferByUuid, path, TransferRecordResponseSchema)
    return res.result
  }

  // ---------------------------------------------------------------- card, verify, sale info

  /** §4.7 (sandbox). Never retried. Request fields are not documented, so the body is passed as given. */
  async createCardPayment(input: Record<string, unknown>): Promise<CardPaymentRecord> {
    if (!input || typeof input !== "object" || Array.isArray(input)) throw new TypeError("createCardPayment input must be an object")
    const ep = ODEME_ENDPOINTS.createCardPayment
    return this.#call(ep, ep.template, CardPaymentRecordSchema, input)
  }

  /**
   * §4.8. Retry-safe. The order is paid only when `is_valid === true` and
   * `official_status === "successful"` (see `isVerifiedSuccessful`).
   */
  async verifyNotification(input: VerifyNotificationInput): Promise<VerifyResult> {
    if (!input || typeof input !== "object") throw new TypeError("verifyNotification input is required")
    const body = {
      order_id: requireString(input.order_id, "order_id"),
      uuid: requireString(input.uuid, "uuid"),
      status: requireString(input.status, "status"),
      hash: requireString(input.hash, "hash"),
    }
    const ep = ODEME_ENDPOINTS.verifyNotification
    return this.#call(ep, ep.template, VerifyResultSchema, body)
  }

  /** §4.9, shapes not documented: any JSON object is returned as is. */
  async saleInfo(body: Record<string, unknown>): Promise<Record<string, unknown>> {
    const ep = ODEME_ENDPOINTS.saleInfo
    return this.#call(ep, ep.template, LooseObjectSchema, body ?? {})
  }

  /** §4.9 */
  async saleInfoTransaction(body: Record<string, unknown>): Promise<Record<string, unknown>> {
    const ep = ODEME_ENDPOINTS.saleInfoTransaction
    return this.#call(ep, ep.template, LooseObjectSchema, body ?? {})
  }

  // ---------------------------------------------------------------- checkout helpers

  /** §4.1 */
  hostedCheckoutUrl(slug: string, id: number, urls?: { successUrl?: string; cancelUrl?: string }): string {
    return hostedCheckoutUrlFn(this.baseUrl, slug, id, urls)
  }

  /** §4.2 / §5.2; requires `apiId` in the client options. */
  buildQuickCheckoutForm(input: Omit<QuickCheckoutFormInput, "baseUrl" | "apiId" | "apiKey">): QuickCheckoutForm {
    if (this.apiId === undefined) throw new TypeError("OdemeClient apiId is required to build a Quick Checkout form")
    return buildQuickCheckoutFormFn({ ...input, baseUrl: this.baseUrl, apiId: this.apiId, apiKey: this.#apiKey })
  }

  /** Closes the connection pool if this client created it. Idempotent. */
  async close(): Promise<void> {
    if (this.#closed) return
    this.#closed = true
    if (this.#ownsDispatcher) await this.#dispatcher.close()
  }

  // ---------------------------------------------------------------- internals

  #redact(text: string): string {
    return redact(text, [this.#apiKey])
  }

  #log(level: keyof OdemeLogger, msg: string): void {
    const fn = this.#logger?.[level]
    if (typeof fn !== "function") return
    try {
      fn.call(this.#logger, this.#redact(msg))
    } catch {
      // a failing logger must not break a payment call
    }
  }

  #error(ep: EndpointDef, init: Omit<OdemeApiErrorInit, "endpoint" | "method" | "path" | "secrets">): OdemeApiError {
    return new OdemeApiError({
      endpoint: ep.name,
      method: ep.method,
      path: ep.template,
      secrets: [this.#apiKey],
      ...init,
    })
  }

  async #call<S extends z.ZodTypeAny>(ep: EndpointDef, path: string, schema: S, body?: unknown): Promise<z.output<S>> {
    const raw = await withRetry((attempt) => this.#attempt(ep, path, body, attempt), {
      retries: ep.retrySafe ? this.#retries : 0,
      baseDelayMs: this.#retryBaseDelayMs,
      maxDelayMs: this.#retryMaxDelayMs,
      shouldRetry: (err) => {
        const e = err instanceof RetryHintError ? err.error : err
        return ep.retrySafe && e instanceof OdemeApiError && e.retryable
      },
      delayHintMs: (err) => (err instanceof RetryHintError ? err.retryAfterMs : undefined),
      onRetry: (err, attempt, delayMs) => {
        const e = err instanceof RetryHintError ? err.error : err
        const what = e instanceof OdemeApiError ? e.message : "error"
        this.#log("warn", `odeme ${ep.name} attempt ${attempt} failed (${what}); retrying in ${delayMs}ms`)
      },
    }).catch((err: unknown) => {
      const e = err instanceof RetryHintError ? err.error : err
      if (e instanceof OdemeApiError) this.#log("warn", `odeme ${ep.name} gave up: ${e.message}`)
      throw e
    })
    return this.#parse(ep, raw, schema)
  }

  #parse<S extends z.ZodTypeAny>(ep: EndpointDef, raw: RawResponse, schema: S): z.output<S> {
    let json: unknown
    try {
      json = JSON.parse(raw.text)
    } catch {
      throw this.#error(ep, {
        kind: "invalid_response",
        retryable: false,
        status: raw.status,
        detail: raw.text.trim() === "" ? "empty body" : "body is not JSON",
        attempts: raw.attempt,
      })
    }
    const parsed = schema.safeParse(json)
    if (!parsed.success) {
      const issue = parsed.error.issues[0]
      const field = issue && issue.path.length ? issue.path.join(".") : "(root)"
      throw this.#error(ep, {
        kind: "invalid_response",
        retryable: false,
        status: raw.status,
        field,
        detail: issue ? truncate(issue.message, 200) : "schema mismatch",
        serviceMessage: extractServiceMessage(json),
        attempts: raw.attempt,
      })
    }
    return parsed.data
  }

  async #attempt(ep: EndpointDef, path: string, body: unknown, attempt: number): Promise<RawResponse> {
    if (this.#closed) {
      throw this.#error(ep, { kind: "network", retryable: false, code: "CLIENT_CLOSED", detail: "client is closed", attempts: attempt })
    }
    const url = `${this.baseUrl}${path}`
    const headers: Record<string, string> = {
      "api-key": this.#apiKey,
      accept: "application/json",
      "user-agent": USER_AGENT,
    }
    let payload: string | undefined
    if (body !== undefined) {
      payload = JSON.stringify(body)
      headers["content-type"] = "application/json"
    }

    const controller = new AbortController()
    let timedOut = false
    const timer = setTimeout(() => {
      timedOut = true
      controller.abort()
    }, this.#timeoutMs)
    const started = Date.now()
    let status: number | undefined
    try {
      const res = await request(url, {
        dispatcher: this.#dispatcher,
        method: ep.method,
        headers,
        body: payload,
        signal: controller.signal,
        headersTimeout: this.#timeoutMs,
        bodyTimeout: this.#timeoutMs,
      })
      status = res.statusCode
      const ok = status >= 200 && status < 300
      const read = await readBody(res.body, ok ? this.#maxResponseBytes : 64 * 1024)
      this.#log("debug", `odeme ${ep.name} ${ep.method} ${ep.template} status=${status} attempt=${attempt} durationMs=${Date.now() - started}`)
      const text = read ?? ""
      if (read === undefined && ok) {
        throw this.#error(ep, {
          kind: "invalid_response",
          retryable: false,
          status,
          detail: "response body too large",
          attempts: attempt,
        })
      }
      if (ok) return { status, text, attempt }

      let json: unknown
      try {
        json = JSON.parse(text)
      } catch {
        json = undefined
      }
      const transient = isRetryableStatus(status)
      const err = this.#error(ep, {
        kind: "http",
        status,
        retryable: transient && ep.retrySafe,
        serviceMessage: extractServiceMessage(json),
        attempts: attempt,
      })
      const retryAfter = transient ? parseRetryAfter(res.headers["retry-after"]) : undefined
      if (retryAfter !== undefined) throw new RetryHintError(err, retryAfter)
      throw err
    } catch (err) {
      if (err instanceof OdemeApiError || err instanceof RetryHintError) throw err
      const code = errorCode(err)
      const isTimeout = timedOut || (code !== undefined && TIMEOUT_CODES.has(code))
      this.#log(
        "debug",
        `odeme ${ep.name} ${ep.method} ${ep.template} status=${status ?? "none"} attempt=${attempt} durationMs=${Date.now() - started} ${isTimeout ? "timeout" : `error=${code ?? "unknown"}`}`
      )
      if (isTimeout) {
        throw this.#error(ep, {
          kind: "timeout",
          retryable: ep.retrySafe,
          status,
          code: code ?? "TIMEOUT",
          detail: `no complete response within ${this.#timeoutMs}ms`,
          attempts: attempt,
        })
      }
      const notSent = code !== undefined && NOT_SENT_CODES.has(code)
      throw this.#error(ep, {
        kind: "network",
        retryable: ep.retrySafe || notSent,
        status,
        code,
        detail: truncate(this.#redact(errorText(err)), 200),
        attempts: attempt,
      })
    } finally {
      clearTimeout(timer)
    }
  }
}

/** Internal: carries a Retry-After hint alongside the error; unwrapped before reaching callers. */
class RetryHintError extends Error {
  constructor(
    readonly error: OdemeApiError,
    readonly retryAfterMs: number
  ) {
    super(error.message)
  }
  get retryable(): boolean {
    return this.error.retryable
  }
}

async function readBody(body: Dispatcher.ResponseData["body"], limit: number): Promise<string | undefined> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of body) {
    const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array)
    size += buf.length
    if (size > limit) {
      body.destroy()
      return undefined
    }
    chunks.push(buf)
  }
  return Buffer.concat(chunks).toString("utf8")
}

function positiveOr(value: number | undefined, fallback: number): number {
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? value : fallback
}

function nonNegativeOr(value: number | undefined, fallback: number): number {
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : fallback
}
