/**
 * HTTP helpers for assertions next to the browser: the Medusa Admin and Store
 * APIs and the emulator's control API.
 */
import { outcomeOfOrders } from "../../../scripts/lib/cart-outcome"
import { requestJson } from "../../../scripts/lib/http"
import { pollUntil } from "../../../scripts/lib/poll"
import type { StackInfo } from "./stack"

export const ADMIN = { email: "admin@odeme.test", password: "supersecret" }

/** JSON over HTTP (scripts/lib/http.js), the body parsed when it is JSON. */
export async function json<T = any>(
  url: string,
  { method = "GET", headers = {}, body }: { method?: string; headers?: Record<string, string>; body?: unknown } = {}
): Promise<{ status: number; body: T }> {
  const res = await requestJson<T>(url, { method, headers, body, timeoutMs: 30_000 })
  return { status: res.status, body: res.json ?? (res.text as T) }
}

/** Polls `fn` until it returns a truthy value (scripts/lib/poll.js). */
export function eventually<T>(what: string, fn: () => Promise<T | null | undefined | false>, timeoutMs = 30_000, everyMs = 250): Promise<T> {
  return pollUntil(fn, { what, timeoutMs, intervalMs: everyMs })
}

export class AdminApi {
  private token: string | null = null
  constructor(private readonly stack: StackInfo) {}

  private async auth() {
    if (this.token) return this.token
    const res = await json(`${this.stack.backend}/auth/user/emailpass`, { method: "POST", body: ADMIN })
    if (res.status !== 200 || !res.body?.token) throw new Error(`admin login: HTTP ${res.status} ${JSON.stringify(res.body)}`)
    return (this.token = res.body.token as string)
  }

  async get<T = any>(pathAndQuery: string): Promise<T> {
    const res = await json<T>(`${this.stack.backend}${pathAndQuery}`, { headers: { authorization: `Bearer ${await this.auth()}` } })
    if (res.status !== 200) throw new Error(`GET ${pathAndQuery}: HTTP ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`)
    return res.body
  }

  async post<T = any>(pathAndQuery: string, body: unknown = {}): Promise<T> {
    const res = await json<T>(`${this.stack.backend}${pathAndQuery}`, {
      method: "POST",
      body,
      headers: { authorization: `Bearer ${await this.auth()}` },
    })
    if (res.status !== 200) throw new Error(`POST ${pathAndQuery}: HTTP ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`)
    return res.body
  }

  /** What the plugin sent the service as `order_id` for one of the order's sessions (its short reference), as Admin shows it. */
  async serviceOrderId(orderId: string, sessionId: string): Promise<string> {
    const { payments } = await this.get<{ payments: Array<{ session_id: string; reference: string }> }>(`/admin/odeme/orders/${orderId}/payment`)
    const payment = payments.find((p) => p.session_id === sessionId)
    if (!payment) throw new Error(`order ${orderId} has no payment of session ${sessionId}`)
    return payment.reference
  }

  /** The order with its payments and their captures. */
  async order(id: string) {
    const { order } = await this.get<{ order: any }>(
      `/admin/orders/${id}?fields=id,display_id,email,total,currency_code,payment_status,status,*payment_collections,*payment_collections.payments,*payment_collections.payments.captures`
    )
    return order
  }

  async ordersByEmail(email: string): Promise<any[]> {
    const { orders } = await this.get<{ orders: any[] }>(`/admin/orders?limit=100&order=-created_at&fields=id,email,payment_status,status`)
    return orders.filter((o) => o.email === email)
  }
}

/** Every payment of an order and all their captures. */
export function paymentsOf(order: any): { payments: any[]; captures: any[] } {
  const { paymentList, captureList } = outcomeOfOrders([order])
  return { payments: paymentList, captures: captureList }
}

export class StoreApi {
  constructor(private readonly stack: StackInfo) {}

  async request<T = any>(method: string, pathAndQuery: string, body?: unknown): Promise<T> {
    const res = await json<T>(`${this.stack.backend}${pathAndQuery}`, {
      method,
      body,
      headers: { "x-publishable-api-key": this.stack.publishableKey },
    })
    if (res.status >= 300) throw new Error(`${method} ${pathAndQuery}: HTTP ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`)
    return res.body
  }

  /**
   * A TRY cart with an address, a shipping method and a bank-transfer session (the emulator's
   * `sandbox_result`), placed through the Store API, ready to complete. Its id.
   */
  async transferCart(opts: { email: string; firstName: string; lastName: string; sandboxResult: "pending" | "successful" }): Promise<string> {
    const { regions } = await this.request("GET", "/store/regions?fields=id,currency_code")
    const region = regions.find((r: any) => r.currency_code === "try")
    const { products } = await this.request("GET", `/store/products?region_id=${region.id}&fields=id,*variants&limit=1`)
    const { cart } = await this.request("POST", "/store/carts", { region_id: region.id, email: opts.email })
    await this.request("POST", `/store/carts/${cart.id}/line-items`, { variant_id: products[0].variants[0].id, quantity: 1 })
    const address = {
      first_name: opts.firstName,
      last_name: opts.lastName,
      address_1: "Bağdat Caddesi 1",
      city: "İstanbul",
      postal_code: "34710",
      country_code: "tr",
    }
    await this.request("POST", `/store/carts/${cart.id}`, { shipping_address: address, billing_address: address })
    const { shipping_options } = await this.request("GET", `/store/shipping-options?cart_id=${cart.id}`)
    await this.request("POST", `/store/carts/${cart.id}/shipping-methods`, { option_id: shipping_options[0].id })
    const { payment_collection } = await this.request("POST", "/store/payment-collections", { cart_id: cart.id })
    const { bank_groups } = await this.request("GET", "/store/odeme/banks")
    await this.request("POST", `/store/payment-collections/${payment_collection.id}/payment-sessions`, {
      provider_id: "pp_odeme-transfer_odeme",
      data: { bank_id: bank_groups[0].accounts[0].bank_id, customer_name: `${opts.firstName} ${opts.lastName}`, sandbox_result: opts.sandboxResult },
    })
    return cart.id
  }

  async cart(id: string) {
    const { cart } = await this.request<{ cart: any }>(
      "GET",
      `/store/carts/${id}?fields=id,completed_at,total,*payment_collection,*payment_collection.payment_sessions`
    )
    return cart
  }
}

export class EmulatorControl {
  constructor(private readonly url: string) {}

  async get<T = any>(p: string): Promise<T> {
    const res = await json<T>(`${this.url}/_control${p}`)
    if (res.status !== 200) throw new Error(`emulator GET ${p}: HTTP ${res.status}`)
    return res.body
  }

  async post<T = any>(p: string, body: unknown): Promise<T> {
    const res = await json<T>(`${this.url}/_control${p}`, { method: "POST", body })
    if (res.status !== 200) throw new Error(`emulator POST ${p}: HTTP ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`)
    return res.body
  }

  /** The transfer the plugin created for a payment, by the `order_id` it was sent (AdminApi.serviceOrderId). */
  async transferOf(orderId: string): Promise<any | undefined> {
    const { result } = await this.get<{ result: any[] }>("/transfers")
    return result.find((t) => t.order_id === orderId)
  }
}

/**
 * A transfer whose creation got a 502 after the service committed it: its outcome is unknown,
 * so the cart stays open and the payment is listed in "needs attention".
 */
export async function unknownOutcomeTransfer(store: StoreApi, emulator: EmulatorControl, email: string): Promise<void> {
  const cartId = await store.transferCart({ email, firstName: "Deniz", lastName: "Aksoy", sandboxResult: "pending" })
  await emulator.post("/faults", { endpoint: "create_transfer", mode: "commit_then_502", count: 1 })
  const done = await store.request("POST", `/store/carts/${cartId}/complete`)
  if (done.type !== "cart") throw new Error(`expected the cart to stay open after a 502: ${JSON.stringify(done).slice(0, 300)}`)
}
