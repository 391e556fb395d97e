import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import type { Logger, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, MedusaError } from "@medusajs/framework/utils"
import { withDeadline } from "../../../lib/deadline"
import { failureReason } from "../../../lib/failure-reason"
import { odemeError } from "../../../lib/medusa-errors"
import { odemeModule } from "../../../modules/odeme/resolve"
import type { OdemeOptions } from "../../../lib/options"
import { allowedStorefrontOrigins } from "../../../lib/options"
import { contentKey, notificationStatus } from "../../../lib/notification-shape"
import { serviceOrderId } from "../../../lib/order-reference"
import { toStorefrontStatus } from "../../../lib/status"
import { isReturnProof } from "../../../lib/session-tag"
import type OdemeModuleService from "../../../modules/odeme/service"
import type { OdemePaymentRow } from "../../../modules/odeme/service"
import { processNotification } from "../../../workflows/process-notification"
import { validatedParams } from "../../utils/path-params"
import { OdemeReturnParams, type OdemeReturnQueryType } from "../validators"
import { errorText } from "../../../lib/error-text"

/**
 * The customer's browser back from the service's page (spec §6.1). Its
 * parameters are navigation, never proof: they are recorded, a transfer
 * confirmation (which carries `uuid`) goes through the notification path, and
 * the customer is sent to the storefront with what the plugin really knows.
 *
 * Only a visit with the session's return proof (the address the plugin signed
 * into the form) is told that: anyone who knows a session id can open its
 * return address, and must learn neither the payment's state nor the ids of
 * the order it pays. Without the proof, a navigation-only return is not
 * recorded (it would list the payment as "returned, not confirmed"), and the
 * visitor is sent to the return page as "pending", where a storefront asks
 * with its own proof of the cart.
 */
export async function answerReturn(req: MedusaRequest<unknown, OdemeReturnQueryType>, res: MedusaResponse): Promise<void> {
  const { session_id: sessionId, outcome, proof } = await validatedParams(req, OdemeReturnParams)
  const q = req.validatedQuery
  const odeme = odemeModule(req.scope)
  const proven = isReturnProof(odeme.odemeOptions.apiKey, sessionId, proof)
  const payment = await odeme.getPayment(sessionId)
  if (!payment) {
    throw odemeError(MedusaError.Types.NOT_FOUND, "odeme.session_unknown", "Payment session was not found for this cart or order.")
  }
  // Not stored (the intake is full, the database is slow): a redirect is never proof, the customer is still sent on.
  const recorded = await recordReturn(odeme, sessionId, outcome, q, proven, serviceOrderId(payment)).catch((err) => {
    req.scope
      .resolve<Logger>(ContainerRegistrationKeys.LOGGER)
      .warn(`medusa-payment-odeme: a return of ${sessionId} was not recorded: ${errorText(err)}`)
    return null
  })

  const waitMs = odeme.odemeOptions.checkout.returnWaitMs
  // Not due (a reload while it waits for its retry): processing refuses it and keeps its backoff.
  if (recorded?.verifiable && recorded.id) {
    // At most waitMs of processing: its failure or lateness is not the customer's concern (the inbox keeps the row due).
    await withDeadline(processNotification(req.scope, recorded.id), waitMs, "processing the return").catch(() => undefined)
  }
  if (!proven) {
    res.redirect(303, unprovenTarget(odeme.odemeOptions, sessionId))
    return
  }
  const settled = await waitForVerdict(odeme, sessionId, waitMs)
  const reason = settled.status === "failed" ? failureReason(q.message) : null
  res.redirect(303, storefrontTarget(odeme.odemeOptions, settled, reason, await balanceOf(req.scope, sessionId), outcome))
}

/**
 * Records a redirect (spec §6.1) as a notification. The `status` column is
 * the webhook's spelling (`successful`/`failed`), which the judge reads; the
 * payload keeps every parameter as it arrived (a redirect says
 * `success`/`error`), so verify is sent the notification's own fields. Only a
 * redirect that carries `uuid`, `hash` and a readable `status` (a transfer
 * confirmation) can be verified; any other is navigation, recorded and done.
 */
export async function recordReturn(
  odeme: OdemeModuleService,
  sessionId: string,
  outcome: string,
  q: OdemeReturnQueryType,
  proven = true,
  /** What the service knows the payment by (its reference; the session id for older payments). */
  orderId: string = sessionId
): Promise<{ id: string | null; verifiable: boolean } | null> {
  const arrived = q.status === undefined ? undefined : notificationStatus.safeParse(q.status)
  const verifiable = !!(q.uuid && q.hash && arrived?.success)
  if (!proven && !verifiable) return { id: null, verifiable: false }
  // Anyone who knows a session id can open its return address with new parameters each time: the rows
  // of one session are bounded. Redirects are never proof, so one not stored loses nothing (the webhook
  // and the poller confirm the payment); the visitor is still sent on.
  // The customer's own (with the proof) are bounded apart from those anyone can send.
  if ((await odeme.countReturns(sessionId, proven, MAX_RETURNS_PER_SESSION)) >= MAX_RETURNS_PER_SESSION) return { id: null, verifiable: false }
  const status = arrived ? (arrived.success ? arrived.data : null) : outcome === "success" ? "successful" : "failed"
  const stored = await odeme.storeNotification({
    source: "return",
    dedupe_key: contentKey({ ...q, order_id: sessionId, outcome }),
    session_id: sessionId,
    service_uuid: q.uuid ?? null,
    status,
    type: q.type ?? null,
    // The service's own words for verify (spec §4.8); the path names the session when the query does not.
    payload: {
      ...q,
      order_id: sessionId,
      outcome,
      arrived: { order_id: q.order_id ?? orderId, uuid: q.uuid, status: q.status, hash: q.hash },
    },
    raw_body: null,
    // Anyone who knows a session id can send a return without the proof; only the customer's own says they came back,
    // and is verified ahead of copies nothing proved.
    trusted: proven,
    state: verifiable ? "received" : "done",
    outcome: verifiable ? null : "navigation_only",
  })
  return stored && { id: stored.row.id, verifiable }
}

const MAX_RETURNS_PER_SESSION = 50

/** The order balance a session pays (Admin's payment link), or null for a checkout's session. */
export interface BalanceOf {
  collectionId: string
  orderId: string
}

/**
 * A session of a payment collection that has no cart but an order (an order
 * edit's, exchange's or claim's balance) pays that order's balance.
 */
export async function balanceOf(container: MedusaContainer, sessionId: string): Promise<BalanceOf | null> {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data: sessions } = await query.graph({ entity: "payment_session", fields: ["payment_collection_id"], filters: { id: sessionId } })
  const collectionId = (sessions[0] as { payment_collection_id?: string } | undefined)?.payment_collection_id
  if (!collectionId) return null
  const [{ data: carts }, { data: orders }] = await Promise.all([
    query.graph({ entity: "cart_payment_collection", fields: ["cart_id"], filters: { payment_collection_id: collectionId } }),
    query.graph({ entity: "order_payment_collection", fields: ["order_id"], filters: { payment_collection_id: collectionId } }),
  ])
  const orderId = (orders[0] as { order_id?: string } | undefined)?.order_id
  return carts.length || !orderId ? null : { collectionId, orderId }
}

/**
 * Where the customer goes next: the session's `return_url` if it is on a
 * configured storefront origin, else the default return page: for an order's
 * balance, the storefront's payment-link page (the address Admin's "Copy
 * payment link" gives, `/payment-collection/{id}?order_id=…`), which shows
 * what the order still owes. It names no cart (anyone who knows a session id
 * can open the return address).
 */
export function storefrontTarget(
  options: OdemeOptions,
  payment: OdemePaymentRow,
  reason: string | null,
  balance: BalanceOf | null = null,
  outcome: "success" | "cancel" = "success"
): string {
  const wanted = (payment.metadata as { return_url?: string } | null)?.return_url
  const fallback = balance
    ? `${options.storefrontUrl}/payment-collection/${encodeURIComponent(balance.collectionId)}?order_id=${encodeURIComponent(balance.orderId)}`
    : `${options.storefrontUrl}${options.checkout.returnPath}`
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
  // Sent back through cancel_url and nothing verified yet: the payment was not completed on the service's page as far
  // as the customer knows, so the storefront offers to try again rather than "being confirmed, do not pay again".
  if (outcome === "cancel" && payment.status === "pending") target.searchParams.set("returned", "cancel")
  return target.toString()
}

/** Where a visit without the return proof goes: the return page, as "pending", naming only the session it opened. */
function unprovenTarget(options: OdemeOptions, sessionId: string): string {
  const target = new URL(`${options.storefrontUrl}${options.checkout.returnPath}`)
  target.searchParams.set("status", "pending")
  target.searchParams.set("session_id", sessionId)
  return target.toString()
}

/** The webhook usually arrives with the browser; give it a moment so the page shows the truth. */
export async function waitForVerdict(odeme: OdemeModuleService, sessionId: string, waitMs: number): Promise<OdemePaymentRow> {
  const deadline = Date.now() + waitMs
  for (;;) {
    const row = (await odeme.getPayment(sessionId))!
    if (row.status !== "pending" || Date.now() >= deadline) return row
    await new Promise((r) => setTimeout(r, 200))
  }
}
