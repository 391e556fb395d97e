/** Admin API of the plugin, as the widget reads it (shapes of src/api/admin/odeme). */

// The server's shapes, imported as types only (erased from the admin bundle), so the widget cannot drift.
import type { AdminOdemePayment, TimelineEvent, TimelineKind } from "../../api/admin/odeme/presenters"

export type { AdminOdemePayment, TimelineEvent, TimelineKind }

export interface CheckResult {
  session_id: string
  state: AdminOdemePayment["state"]
  changed: boolean
  detail: string
  status_text?: string
}

declare const __BACKEND_URL__: string | undefined

/** The Medusa server the dashboard talks to ("" when the admin is served by it). */
function backendUrl(): string {
  let url = ""
  try {
    url = typeof __BACKEND_URL__ === "string" ? __BACKEND_URL__ : ""
  } catch {
    url = ""
  }
  return url === "/" ? "" : url.replace(/\/+$/, "")
}

/** The dashboard's own js-sdk instance (it knows the backend URL and the auth type, session or JWT). */
type DashboardSdk = { client?: { fetch?: (path: string, init?: { method?: string; body?: unknown }) => Promise<unknown> } }

async function call<T>(path: string, init: { method?: string; body?: Record<string, unknown> } = {}): Promise<T> {
  const sdk = typeof window !== "undefined" ? (window as unknown as { __sdk?: DashboardSdk }).__sdk : undefined
  if (sdk?.client?.fetch) {
    try {
      return (await sdk.client.fetch(path, { method: init.method ?? "GET", body: init.body })) as T
    } catch (e) {
      throw new Error(e instanceof Error && e.message ? e.message : "The request failed")
    }
  }
  return plainFetch<T>(path, init)
}

async function plainFetch<T>(path: string, init: { method?: string; body?: Record<string, unknown> }): Promise<T> {
  const res = await fetch(`${backendUrl()}${path}`, {
    method: init.method ?? "GET",
    body: init.body ? JSON.stringify(init.body) : undefined,
    credentials: "include",
    headers: { accept: "application/json", ...(init.body ? { "content-type": "application/json" } : {}) },
  })
  const text = await res.text()
  let body: unknown = null
  try {
    body = text ? JSON.parse(text) : null
  } catch {
    body = null
  }
  if (!res.ok) {
    const message = (body as { message?: string } | null)?.message
    throw new Error(message || `The server answered ${res.status}`)
  }
  return body as T
}

export function fetchOrderPayments(orderId: string): Promise<{ payments: AdminOdemePayment[] }> {
  return call(`/admin/odeme/orders/${encodeURIComponent(orderId)}/payment`)
}

export function checkPaymentNow(sessionId: string): Promise<CheckResult> {
  return call(`/admin/odeme/payments/${encodeURIComponent(sessionId)}/check`, { method: "POST", body: {} })
}
