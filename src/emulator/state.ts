import { randomBytes, randomInt } from "node:crypto"
import { DEFAULT_PRODUCTS, DEFAULT_RATES } from "./fixtures"
import type { Access, EmulatorOptions, Payment, RuntimeConfig } from "./types"

export const DEFAULT_RETRY_DELAYS_MS = [1000, 2000, 5000, 10000, 30000, 60000]

export function buildConfig(options: EmulatorOptions, publicUrl: string): RuntimeConfig {
  const main: Access = {
    apiId: options.apiId ?? 1001,
    apiKey: options.apiKey ?? "sandbox_test_key_0001",
    mode: options.mode ?? "sandbox",
    apiIp: options.apiIp ?? "0.0.0.0",
  }
  const extra: Access[] = (options.accesses ?? []).map((a) => ({
    apiId: a.apiId,
    apiKey: a.apiKey,
    mode: a.mode,
    apiIp: a.apiIp ?? "0.0.0.0",
  }))
  return {
    publicUrl: publicUrl.replace(/\/+$/, ""),
    accesses: [main, ...extra],
    webhookUrl: options.webhookUrl || undefined,
    permBankTransfer: options.permBankTransfer ?? true,
    pmBankTransfer: options.pmBankTransfer ?? true,
    minimumAmountTry: options.minimumAmountTry ?? "10.00",
    rates: { ...DEFAULT_RATES, ...(options.rates ?? {}) },
    currencyVariant: options.currencyVariant ?? "B",
    signatureMaxAgeSeconds: options.signatureMaxAgeSeconds ?? 1800,
    webhookRetryDelaysMs: [...(options.webhookRetryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS)],
    hashSecret: options.hashSecret ?? randomBytes(32).toString("hex"),
    products: (options.products ?? DEFAULT_PRODUCTS).map((p) => ({ ...p })),
  }
}

export function cloneConfig(c: RuntimeConfig): RuntimeConfig {
  return {
    ...c,
    accesses: c.accesses.map((a) => ({ ...a })),
    rates: { ...c.rates },
    webhookRetryDelaysMs: [...c.webhookRetryDelaysMs],
    products: c.products.map((p) => ({ ...p })),
  }
}

/** Config as shown by the control API: never includes API keys or the hash secret. */
export function publicConfig(c: RuntimeConfig) {
  return {
    publicUrl: c.publicUrl,
    accesses: c.accesses.map((a) => ({ apiId: a.apiId, mode: a.mode, apiIp: a.apiIp })),
    webhookUrl: c.webhookUrl ?? null,
    permBankTransfer: c.permBankTransfer,
    pmBankTransfer: c.pmBankTransfer,
    minimumAmountTry: c.minimumAmountTry,
    rates: c.rates,
    currencyVariant: c.currencyVariant,
    signatureMaxAgeSeconds: c.signatureMaxAgeSeconds,
    webhookRetryDelaysMs: c.webhookRetryDelaysMs,
    products: c.products,
  }
}

export interface RequestRecord {
  seq: number
  time: string
  method: string
  path: string
  query: Record<string, string>
  body: unknown
  has_api_key: boolean
  endpoint?: string
  status?: number
}

export interface FastTransferRecord {
  sender_name: string
  amount: string
  currency: string
  time: string
  matched_uuid: string | null
}

export type NextOutcome = "successful" | "failed" | "pending"

// Identifiers never restart (not even on reset) so that a merchant database
// that outlives a reset never sees the same tracking number twice.
let trackingSeq = randomInt(100000, 900000)
let transactionSeq = randomInt(1000000, 9000000)

export function nextTrackingNo(): string {
  trackingSeq += 1
  return `${Math.floor(Date.now() / 1000)}${String(trackingSeq).padStart(6, "0")}`
}

export function nextTransactionId(): string {
  transactionSeq += 1
  return `TX${Math.floor(Date.now() / 1000)}${transactionSeq}`
}

export class EmulatorState {
  config: RuntimeConfig
  payments = new Map<string, Payment>()
  requests: RequestRecord[] = []
  /** Every service request since the last reset, counted by path: the log above keeps only the last 5,000. */
  requestCounts = new Map<string, number>()
  fastTransfers: FastTransferRecord[] = []
  nextTransferOutcome: NextOutcome | null = null
  nextCardOutcome: NextOutcome | null = null
  private requestSeq = 0

  constructor(private readonly initial: RuntimeConfig) {
    this.config = cloneConfig(initial)
  }

  reset(): void {
    this.config = cloneConfig(this.initial)
    this.payments.clear()
    this.requests = []
    this.requestCounts.clear()
    this.fastTransfers = []
    this.nextTransferOutcome = null
    this.nextCardOutcome = null
  }

  get mainAccess(): Access {
    return this.config.accesses[0]
  }

  accessByKey(key: string): Access | undefined {
    return this.config.accesses.find((a) => a.apiKey === key)
  }

  accessById(id: number): Access | undefined {
    return this.config.accesses.find((a) => a.apiId === id)
  }

  recordRequest(r: Omit<RequestRecord, "seq">): RequestRecord {
    const rec = { seq: ++this.requestSeq, ...r }
    this.requestCounts.set(r.path, (this.requestCounts.get(r.path) ?? 0) + 1)
    this.requests.push(rec)
    if (this.requests.length > 5000) this.requests.shift()
    return rec
  }

  findByTrackingNo(no: string): Payment | undefined {
    for (const p of this.payments.values()) if (p.transfer?.br_tracking_no === no) return p
    return undefined
  }

  findBy(field: "order_id" | "transaction_id", value: string): Payment[] {
    return [...this.payments.values()].filter((p) => p[field] === value)
  }

  get bankTransferAllowedOnPages(): boolean {
    return this.config.permBankTransfer && this.config.pmBankTransfer
  }
}
