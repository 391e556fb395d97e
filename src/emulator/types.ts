export type Mode = "sandbox" | "live"
export type CurrencyVariant = "A" | "B"
export type PaymentStatus = "pending" | "successful" | "failed"
export type PaymentKind = "quick_checkout" | "hosted_checkout" | "card_api" | "bank_transfer_api"
export type PaymentMethod = "credit_card" | "bank_transfer"
/** §6.2 webhook `status` words. */
export type WebhookStatus = "successful" | "failed"
/** §6.1 browser redirect `status` words. */
export type RedirectStatus = "success" | "error"
/** The `status` a notification carries; verify (§4.8) receives it as it arrived. */
export type NotificationStatus = WebhookStatus | RedirectStatus
export const NOTIFICATION_STATUSES: readonly NotificationStatus[] = ["successful", "failed", "success", "error"]

export interface Access {
  apiId: number
  apiKey: string
  mode: Mode
  apiIp: string
}

export interface Product {
  slug: string
  id: number
  name: string
  price: string
  currency: string
}

export interface EmulatorOptions {
  port?: number
  host?: string
  publicUrl?: string
  apiId?: number
  apiKey?: string
  mode?: Mode
  accesses?: Array<{ apiId: number; apiKey: string; mode: Mode; apiIp?: string }>
  apiIp?: string
  webhookUrl?: string
  permBankTransfer?: boolean
  pmBankTransfer?: boolean
  minimumAmountTry?: string
  rates?: Record<string, string>
  currencyVariant?: CurrencyVariant
  signatureMaxAgeSeconds?: number
  webhookRetryDelaysMs?: number[]
  hashSecret?: string
  products?: Product[]
  logger?: (line: string) => void
}

export interface RunningEmulator {
  url: string
  port: number
  close(): Promise<void>
}

/** Mutable runtime configuration (reset restores the startup values). */
export interface RuntimeConfig {
  publicUrl: string
  accesses: Access[]
  webhookUrl?: string
  permBankTransfer: boolean
  pmBankTransfer: boolean
  minimumAmountTry: string
  rates: Record<string, string>
  currencyVariant: CurrencyVariant
  signatureMaxAgeSeconds: number
  webhookRetryDelaysMs: number[]
  hashSecret: string
  products: Product[]
}

export interface TransferInfo {
  br_tracking_no: string
  br_name: string
  br_bank_name: string
  br_iban: string
  bank_id: number
  client_ip?: string
  customer_email?: string
  customer_phone?: string
  sale_date: number
}

export interface Payment {
  uuid: string
  transaction_id: string
  kind: PaymentKind
  /** null until the customer picks card or transfer on a checkout page. */
  method: PaymentMethod | null
  mode: Mode
  api_id: number
  order_id: string
  /** Amount processed, two decimals (variant A: the converted TRY amount). */
  amount: string
  currency: string
  /** What the merchant sent, when variant A converted it. */
  requested_amount?: string
  requested_currency?: string
  description?: string
  success_url?: string
  cancel_url?: string
  product?: { slug: string; id: number }
  status: PaymentStatus
  /** Readable failure text (redirect `message`). */
  failure_message?: string
  transfer?: TransferInfo
  /**
   * Hash of each notification issued, by the status word it carried: the
   * webhook's under `successful`/`failed`, the browser redirect's under
   * `success`/`error` (set when the redirect is first sent).
   */
  hashes: Partial<Record<NotificationStatus, string>>
  created_at: string
  updated_at: string
  completed_at?: string
}
