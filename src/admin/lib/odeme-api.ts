/** The plugin's admin API as the Admin reads it (shapes of src/api/admin/odeme). */
import { sdk } from "./sdk"

// The server's shapes, as types only (erased from the admin bundle), so the Admin cannot drift.
export type {
  AdminCharge,
  AdminOdemePayment,
  AttentionAction,
  AttentionCounts,
  AttentionItem,
  AttentionKind,
  AttentionList,
  LastCheck,
  LastCheckCode,
  TimelineEvent,
  TimelineKind,
} from "../../api/admin/odeme/presenters"
export type { ConnectionCheck, ConnectionResult } from "../../api/admin/odeme/connection/classify"
export type { ConfigWarning } from "../../api/admin/odeme/settings/warnings"
import type { AdminOdemePayment, AdminOrderCollection, AttentionCounts, AttentionList } from "../../api/admin/odeme/presenters"
import type { ConnectionResult } from "../../api/admin/odeme/connection/classify"
import type { CheckCode } from "../../lib/check-code"
export type { AdminOrderCollection, CheckCode }
import type { ConfigWarning } from "../../api/admin/odeme/settings/warnings"

export interface CheckResult {
  session_id: string
  state: AdminOdemePayment["state"]
  changed: boolean
  /** What the check found, as a code the Admin translates (servers before 0.2 send none). */
  code?: CheckCode
  /** Technical: what the check found, as the server recorded it. */
  detail?: string
}

/** A payment of the order, with the payment collection it pays (the checkout's or a balance's). */
export type AdminOrderPayment = AdminOdemePayment & { payment_collection_id?: string | null }

export interface OdemeSettings {
  mode: "sandbox" | "live"
  sandbox: boolean
  api_id: number
  base_url: string
  backend_url: string
  storefront_url: string
  webhook_url: string
  return_urls: string[]
  storefront_origins: string[]
  refunds: "manual" | "reject"
  checkout_description?: string
  webhook_health?: {
    last_webhook_at: string | null
    webhooks_24h: number
    medusa_hook_24h: number
    unconfirmed_returns: number
    /** Notifications for references this store did not make (answered, counted, never processed). */
    strays?: { count: number; last_at: string | null }
  }
  warnings: ConfigWarning[]
}

const path = (template: string, ...ids: string[]) => ids.reduce((p, id) => p.replace(/:[a-z_]+/, encodeURIComponent(id)), template)

export const odemeApi = {
  orderPayments: (orderId: string) =>
    sdk.client.fetch<{ order_id: string; payments: AdminOrderPayment[]; collections?: AdminOrderCollection[] }>(
      path("/admin/odeme/orders/:order_id/payment", orderId)
    ),
  checkPayment: (sessionId: string) =>
    sdk.client.fetch<CheckResult>(path("/admin/odeme/payments/:session_id/check", sessionId), { method: "POST", body: {} }),
  retryNotification: (id: string) => sdk.client.fetch<unknown>(path("/admin/odeme/notifications/:id/retry", id), { method: "POST", body: {} }),
  acknowledgeCharge: (chargeId: string) =>
    sdk.client.fetch<unknown>(path("/admin/odeme/charges/:charge_id/acknowledge", chargeId), { method: "POST", body: {} }),
  acknowledgeRefund: (refundId: string) =>
    sdk.client.fetch<unknown>(path("/admin/odeme/refunds/:id/acknowledge", refundId), { method: "POST", body: {} }),
  resolvePayment: (sessionId: string, note: string) =>
    sdk.client.fetch<unknown>(path("/admin/odeme/payments/:session_id/resolve", sessionId), { method: "POST", body: { note } }),
  attention: (query: { limit?: number; offset?: number } = {}) => sdk.client.fetch<AttentionList>("/admin/odeme/attention", { query }),
  settings: () => sdk.client.fetch<OdemeSettings>("/admin/odeme/settings"),
  testConnection: () => sdk.client.fetch<ConnectionResult>("/admin/odeme/connection", { method: "POST", body: {} }),
}
