import type { Dispatcher } from "undici"
import * as banks from "./banks"
import {
  buildQuickCheckoutForm as buildQuickCheckoutFormFn,
  hostedCheckoutUrl as hostedCheckoutUrlFn,
  normalizeBaseUrl,
  type QuickCheckoutForm,
  type QuickCheckoutFormInput,
} from "./checkout"
import { DEFAULT_RETRY_BASE_DELAY_MS, DEFAULT_RETRY_MAX_DELAY_MS } from "./retry"
import * as sale from "./sale"
import type { BankAccount, BankGroup, CardPaymentRecord, CreateBankTransferResult, TransferRecord, VerifyResult } from "./schemas"
import * as transfers from "./transfers"
import { OdemeTransport, type OdemeLogger } from "./transport"
import * as verify from "./verify"

export { ODEME_ENDPOINTS, type EndpointDef, type HttpMethod } from "./endpoints"
export { BANK_TRANSFER_CURRENCIES, type BankTransferCurrency, type BigNumberLike, type CreateBankTransferInput } from "./transfers"
export type { OdemeLogger } from "./transport"
export type { VerifyNotificationInput } from "./verify"

/** Connections per origin when none is given: room for the default poller and checkout traffic. */
export const DEFAULT_CONNECTIONS = 16

export interface OdemeClientOptions {
  /** e.g. https://service.example or http://127.0.0.1:4010; trailing slash tolerated. */
  baseUrl: string
  apiKey: string
  /** API access id; needed for Quick Checkout forms. */
  apiId?: number | string
  /** Per attempt (undici's headers/body/connect timeouts); a call that is never retried gets exactly this long. Default 10 000 ms. */
  timeoutMs?: number
  /** Extra attempts for retry-safe calls, default 2. */
  retries?: number
  /** Default 250 ms; full-jitter exponential backoff. */
  retryBaseDelayMs?: number
  /** Backoff cap (and Retry-After cap), default 4 000 ms. */
  retryMaxDelayMs?: number
  /** Largest response body read, default 1 MiB. */
  maxResponseBytes?: number
  /** Connections per origin in the client's own undici Agent, default 16. Ignored when `dispatcher` is given. */
  connections?: number
  /** Tests pass a MockAgent; default: one keep-alive undici Agent per client. */
  dispatcher?: Dispatcher
  logger?: OdemeLogger
}

/**
 * Client for the Odeme service API (spec §4). Retry-safe calls (all GETs,
 * webhook verify, sale info) are retried by undici's retry interceptor on
 * network errors, timeouts, 408, 429 and 5xx; transfer creation and card
 * payment never go through it.
 */
export class OdemeClient {
  readonly baseUrl: string
  readonly apiId?: number | string
  readonly #apiKey: string
  readonly #t: OdemeTransport

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
    this.#t = new OdemeTransport({
      baseUrl: this.baseUrl,
      apiKey: options.apiKey,
      timeoutMs: positiveOr(options.timeoutMs, 10_000),
      retries: Math.floor(nonNegativeOr(options.retries, 2)),
      retryBaseDelayMs: nonNegativeOr(options.retryBaseDelayMs, DEFAULT_RETRY_BASE_DELAY_MS),
      retryMaxDelayMs: nonNegativeOr(options.retryMaxDelayMs, DEFAULT_RETRY_MAX_DELAY_MS),
      maxResponseBytes: positiveOr(options.maxResponseBytes, 1024 * 1024),
      connections: Math.floor(positiveOr(options.connections, DEFAULT_CONNECTIONS)),
      dispatcher: options.dispatcher,
      logger: options.logger,
    })
  }

  /** Keeps the key out of console.log / util.inspect output. */
  [Symbol.for("nodejs.util.inspect.custom")](): string {
    return `OdemeClient { baseUrl: '${this.baseUrl}' }`
  }

  toJSON(): { baseUrl: string; apiId?: number | string } {
    return this.apiId === undefined ? { baseUrl: this.baseUrl } : { baseUrl: this.baseUrl, apiId: this.apiId }
  }

  /** §4.3 */
  listBankGroups(): Promise<BankGroup[]> {
    return banks.listBankGroups(this.#t)
  }

  /** §4.4 */
  listBanks(bankGroupId: number): Promise<BankAccount[]> {
    return banks.listBanks(this.#t, bankGroupId)
  }

  /** §4.5. Never retried: a timeout means the outcome is unknown (`retryable: false`). */
  createBankTransfer(input: transfers.CreateBankTransferInput): Promise<CreateBankTransferResult> {
    return transfers.createBankTransfer(this.#t, input)
  }

  /** §4.6 control endpoint, by tracking number (`br_tracking_no`). */
  getTransferByTrackingNo(trackingNo: string, opts: { sandboxResult?: "successful" | "failed" } = {}): Promise<TransferRecord> {
    return transfers.getTransferByTrackingNo(this.#t, trackingNo, opts)
  }

  /** §4.6 uuid endpoint (the `payment_id` returned on creation). */
  getTransferByUuid(uuid: string): Promise<TransferRecord> {
    return transfers.getTransferByUuid(this.#t, uuid)
  }

  /** §4.7 (sandbox). Never retried. */
  createCardPayment(input: Record<string, unknown>): Promise<CardPaymentRecord> {
    return sale.createCardPayment(this.#t, input)
  }

  /** §4.8. Retry-safe. */
  verifyNotification(input: verify.VerifyNotificationInput): Promise<VerifyResult> {
    return verify.verifyNotification(this.#t, input)
  }

  /** §4.9 */
  saleInfo(body: Record<string, unknown>): Promise<Record<string, unknown>> {
    return sale.saleInfo(this.#t, body)
  }

  /** §4.9 */
  saleInfoTransaction(body: Record<string, unknown>): Promise<Record<string, unknown>> {
    return sale.saleInfoTransaction(this.#t, body)
  }

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
  close(): Promise<void> {
    return this.#t.close()
  }
}

function positiveOr(value: number | undefined, fallback: number): number {
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? value : fallback
}

function nonNegativeOr(value: number | undefined, fallback: number): number {
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : fallback
}
