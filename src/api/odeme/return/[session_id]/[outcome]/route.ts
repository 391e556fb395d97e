import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { failureReason } from "../../../../../lib/failure-reason"
import { allowedStorefrontOrigins, type OdemeOptions } from "../../../../../lib/options"
import { processNotification } from "../../../../../lib/process-notification"
import { toStorefrontStatus } from "../../../../../lib/status"
import { contentKey, hasNulCharacter, notificationStatus, returnQuerySchema, zodMessage } from "../../../../../lib/notification-shape"
import type OdemeModuleService from "../../../../../modules/odeme/service"
import type { OdemePaymentRow } from "../../../../../modules/odeme/service"
import { odemeModule } from "../../../../utils/odeme-module"

const SESSION_ID = /^payses_[A-Za-z0-9]{10,60}$/

/**
 * GET /odeme/return/:session_id/:outcome — the `success_url` / `cancel_url`
 * the service sends the customer's browser to (spec §6.1). Its parameters are
 * navigation, never proof: they are recorded, a transfer confirmation (which
 * carries `uuid`) goes through the notification path, and the customer is
 * sent to the storefront with what the plugin really knows. The target is
 * only ever a configured storefront origin, and it names no cart: anyone who
 * knows a session id can open this address, so the storefront takes the
 * cart from its own cookie.
 */
export async function GET(req: MedusaRequest, res: MedusaResponse) {
  const { session_id: sessionId, outcome } = req.params
  if (!SESSION_ID.test(sessionId) || (outcome !== "success" && outcome !== "cancel")) {
    res.status(400).type("text/plain").send("Invalid return address.")
    return
  }
  const query = returnQuerySchema.safeParse(req.query)
  if (query.success && hasNulCharacter(query.data)) {
    res.status(400).type("text/plain").send("Invalid return parameters: NUL characters are not allowed.")
    return
  }
  if (!query.success) {
    res.status(400).type("text/plain").send(`Invalid return parameters: ${zodMessage(query.error)}`)
    return
  }
  const odeme = odemeModule(req.scope)
  const q = query.data
  const status = notificationStatus.safeParse(q.status ?? (outcome === "success" ? "successful" : "failed"))
  const verifiable = !!(q.uuid && q.hash && status.success)
  const stored = await odeme.storeNotification({
    source: "return",
    dedupe_key: contentKey({ ...q, order_id: sessionId, outcome }),
    session_id: sessionId,
    service_uuid: q.uuid ?? null,
    status: status.success ? status.data : null,
    type: q.type ?? null,
    payload: { ...q, order_id: sessionId, outcome },
    raw_body: null,
    // A card redirect has nothing the verify endpoint could check: it is recorded, not processed.
    state: verifiable ? "received" : "done",
    outcome: verifiable ? null : "navigation_only",
  })
  if (!stored) {
    res.status(404).type("text/plain").send("Unknown payment.")
    return
  }

  const waitMs = odeme.odemeOptions.checkout.returnWaitMs
  // Not due (a reload while it waits for its retry): processing refuses it and keeps its backoff.
  if (verifiable) await withTimeout(processNotification(req.scope, stored.row.id), waitMs)
  const settled = await waitForVerdict(odeme, sessionId, waitMs)
  const reason = settled.status === "failed" ? failureReason(q.message) : null
  res.redirect(303, storefrontTarget(odeme.odemeOptions, settled, reason))
}

function storefrontTarget(options: OdemeOptions, payment: OdemePaymentRow, reason: string | null): string {
  const wanted = (payment.metadata as { return_url?: string } | null)?.return_url
  const fallback = `${options.storefrontUrl}${options.checkout.returnPath}`
  let target: URL
  try {
    target = new URL(wanted && allowedStorefrontOrigins(options).includes(new URL(wanted).origin) ? wanted : fallback)
  } catch {
    target = new URL(fallback)
  }
  target.searchParams.set("status", toStorefrontStatus(payment.status))
  target.searchParams.set("session_id", payment.session_id)
  // Only once the failure is verified, and only as a code (never the service's free text).
  if (reason) target.searchParams.set("reason", reason)
  return target.toString()
}

/** The webhook usually arrives with the browser; give it a moment so the page shows the truth. */
async function waitForVerdict(odeme: OdemeModuleService, sessionId: string, waitMs: number): Promise<OdemePaymentRow> {
  const deadline = Date.now() + waitMs
  for (;;) {
    const row = (await odeme.getPayment(sessionId))!
    if (row.status !== "pending" || Date.now() >= deadline) return row
    await new Promise((r) => setTimeout(r, 200))
  }
}

async function withTimeout<T>(p: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), ms)))
  try {
    return await Promise.race([p.catch(() => undefined), timeout])
  } finally {
    clearTimeout(timer)
  }
}
