import { container } from "@medusajs/framework"
import { asValue } from "@medusajs/framework/awilix"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { startEmulator } from "../../../../emulator"
import { type OdemeOptions } from "../../../../lib/options"
import type { OdemeClient } from "../../../../client"
import type { BankDirectory } from "../../../../modules/odeme/bank-directory"
import { registerPluginOptions, resetRegistrations } from "../../../../lib/options-registration"
import { createServiceClient } from "../../../../modules/odeme/service-client"
import { ODEME_MODULE } from "../../../../modules/odeme"
import { newOrderReference } from "../../../../lib/order-reference"
import type { OdemeChargeRow, OdemePaymentRow, PaymentDetails, StateChange } from "../../../../modules/odeme/service"

/**
 * The plugin module's payment rows in memory, with the same conditional
 * writes as its SQL (claim only from none/failed, end only while creating,
 * compare-and-set on version), so the providers can be unit tested in
 * milliseconds. The SQL itself is tested against PostgreSQL in
 * integration-tests/modules; nothing of Medusa is replaced.
 */
export class MemoryOdemeModule {
  readonly payments = new Map<string, OdemePaymentRow>()
  readonly charges: Array<Partial<OdemeChargeRow>> = []
  readonly stored: unknown[] = []

  readonly client: OdemeClient
  readonly banks: BankDirectory

  constructor(readonly odemeOptions: OdemeOptions) {
    // As the real module builds them: the providers reach the service through these.
    ;({ client: this.client, banks: this.banks } = createServiceClient(odemeOptions))
  }

  async getPayment(sessionId: string): Promise<OdemePaymentRow | null> {
    const row = this.payments.get(sessionId)
    return row ? { ...row } : null
  }

  async recordInitiated(
    row: Pick<OdemePaymentRow, "session_id" | "provider" | "flow" | "mode" | "amount" | "currency"> & { metadata?: Record<string, unknown> | null }
  ) {
    const existing = this.payments.get(row.session_id)
    const next = existing
      ? { ...existing, amount: row.amount, currency: row.currency, metadata: row.metadata ?? existing.metadata }
      : ({
          ...EMPTY_ROW,
          id: `odpay_${this.payments.size + 1}`,
          reference: newOrderReference(this.odemeOptions.referencePrefix),
          ...row,
          metadata: row.metadata ?? null,
        } as OdemePaymentRow)
    this.payments.set(row.session_id, next)
    return { ...next }
  }

  async claimTransferCreation(sessionId: string, details: PaymentDetails) {
    return this.update(sessionId, (r) => r.status === "pending" && (r.creation_state === "none" || r.creation_state === "failed"), {
      ...details,
      creation_state: "creating",
      creation_started_at: new Date(),
    })
  }

  async endTransferCreation(sessionId: string, outcome: { creation_state: "created" | "failed" | "unknown" } & PaymentDetails) {
    return this.update(sessionId, (r) => r.creation_state === "creating", outcome)
  }

  async updatePaymentDetails(sessionId: string, details: PaymentDetails) {
    return this.update(sessionId, () => true, details)
  }

  async compareAndSetState(sessionId: string, version: number, change: StateChange) {
    return this.update(sessionId, (r) => r.version === version, { ...change, version: version + 1 })
  }

  async recordCharge(charge: Partial<OdemeChargeRow> & { verified: boolean }) {
    const i = this.charges.findIndex((c) => c.session_id === charge.session_id && c.service_uuid === charge.service_uuid)
    const row = { ...(i >= 0 ? this.charges[i] : {}), ...charge, role: charge.role ?? (i >= 0 ? this.charges[i].role : "none") }
    if (i >= 0) this.charges[i] = row
    else this.charges.push(row)
    return row as OdemeChargeRow
  }

  /** As the module's: a reference, else a session id. */
  async sessionOfOrderId(orderId: string): Promise<string | null> {
    for (const row of this.payments.values()) if (row.reference === orderId) return row.session_id
    return this.payments.has(orderId) ? orderId : null
  }

  async storeNotificationUnbounded(input: { session_id: string; dedupe_key: string }) {
    const sessionId = await this.sessionOfOrderId(input.session_id)
    if (!sessionId) return null
    const n = { ...input, session_id: sessionId }
    const duplicate = this.stored.some((s) => (s as { dedupe_key: string }).dedupe_key === n.dedupe_key)
    if (!duplicate) this.stored.push(n)
    return { row: { id: `odntf_${this.stored.length}`, state: "received", attempts: 0, ...n }, duplicate }
  }

  async countOpenWebhooks(sessionId: string, atMost: number) {
    return Math.min(atMost, this.stored.filter((s) => (s as { session_id: string }).session_id === sessionId).length)
  }

  private update(sessionId: string, when: (r: OdemePaymentRow) => boolean, change: Record<string, unknown>): OdemePaymentRow | null {
    const row = this.payments.get(sessionId)
    if (!row || !when(row)) return null
    const next = { ...row, ...change } as OdemePaymentRow
    this.payments.set(sessionId, next)
    return { ...next }
  }
}

const EMPTY_ROW: Partial<OdemePaymentRow> = {
  status: "pending",
  review_code: null,
  version: 0,
  creation_state: "none",
  creation_started_at: null,
  service_uuid: null,
  tracking_no: null,
  payer_name: null,
  bank_id: null,
  bank_name: null,
  account_holder: null,
  iban: null,
  charged_amount: null,
  charged_currency: null,
  next_check_at: null,
  check_attempts: 0,
  review_reason: null,
  cart_id: null,
  order_id: null,
}

export const silentLogger = { debug() {}, info() {}, warn() {}, error() {}, log() {} }

/** Registers the plugin (as its module would at boot) and puts the in-memory module where providers look for it. */
export function installMemoryModule(options: Record<string, unknown>): MemoryOdemeModule {
  resetRegistrations()
  const parsed = registerPluginOptions(options)
  const module = new MemoryOdemeModule(parsed)
  container.register(ODEME_MODULE, asValue(module))
  container.register(ContainerRegistrationKeys.LOGGER, asValue(silentLogger))
  return module
}

/** The in-process emulator (a real HTTP server on a free port) and plugin options that point at it. */
export async function startServiceForProviders(over: Record<string, unknown> = {}) {
  // The callback URL a merchant needs to create transfers (§4.5 rule 2); nothing listens there.
  const emulator = await startEmulator({ port: 0, webhookRetryDelaysMs: [50], webhookUrl: "http://127.0.0.1:9/odeme/webhook" })
  const options = {
    apiKey: "sandbox_test_key_0001",
    apiId: "1001",
    baseUrl: emulator.url,
    backendUrl: "http://localhost:9000",
    storefrontUrl: "http://localhost:8000",
    httpTimeoutMs: 2_000,
    ...over,
  }
  const control = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${emulator.url}/_control${path}`, {
      method,
      headers: body ? { "content-type": "application/json" } : {},
      body: body ? JSON.stringify(body) : undefined,
    })
    return (await res.json()) as any
  }
  return { emulator, options, control, module: installMemoryModule(options) }
}

/** The plugin's stable code of a thrown error, with its Medusa type. */
export async function failureOf(work: Promise<unknown>): Promise<{ type: string; code: string; message: string }> {
  try {
    await work
  } catch (e) {
    const err = e as { type: string; code: string; message: string }
    return { type: err.type, code: err.code, message: err.message }
  }
  throw new Error("expected the call to fail")
}
