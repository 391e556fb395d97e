import type { Logger, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { cancelOrderWorkflow } from "@medusajs/medusa/core-flows"
import type { Knex } from "@medusajs/framework/mikro-orm/knex"
import { OdemeApiError } from "../client"
import { ODEME_MODULE } from "../modules/odeme"
import type OdemeModuleService from "../modules/odeme/service"
import { applyVerdict, confirmNotification, medusaState } from "./confirm-payment"
import { moneyMismatch, type Verdict } from "./judge"
import { NotificationInbox } from "./notification-inbox"
import { PaymentStore, type OdemePaymentRow } from "./payment-store"
import { stateFromSaleStatus, type OdemeState } from "./status"

export interface CheckResult {
  session_id: string
  state: OdemeState
  changed: boolean
  detail: string
}

/**
 * Minutes until the next check of a pending transfer: FAST transfers usually
 * confirm within minutes, so young transfers are checked often and old ones
 * rarely.
 */
export function nextCheckDelayMs(createdAt: Date, now = Date.now()): number {
  const ageMin = (now - new Date(createdAt).getTime()) / 60_000
  if (ageMin < 10) return 60_000
  if (ageMin < 60) return 5 * 60_000
  if (ageMin < 24 * 60) return 15 * 60_000
  return 60 * 60_000
}

/**
 * Asks the service about one payment and runs the confirmation path with its
 * answer. For API transfers the uuid endpoint is the service's own record
 * (queried with the secret key), so its `sale_status` is authoritative; for
 * checkout payments the stored notifications are verified again.
 * Used by the polling job and the admin "check now" action.
 */
export async function checkPayment(container: MedusaContainer, sessionId: string): Promise<CheckResult> {
  const db = container.resolve<Knex>(ContainerRegistrationKeys.PG_CONNECTION)
  const payments = new PaymentStore(db)
  const row = await payments.get(sessionId)
  if (!row) return { session_id: sessionId, state: "pending", changed: false, detail: "unknown session" }
  if (row.service_uuid && row.flow === "transfer_api") return checkTransfer(container, row)

  // Checkout (or a transfer without a known uuid): verify the latest stored notification again.
  const latest = await db("odeme_notification")
    .whereNull("deleted_at")
    .where({ session_id: sessionId })
    .whereNotNull("service_uuid")
    .orderBy("created_at", "desc")
    .first()
  if (!latest) return { session_id: sessionId, state: row.status, changed: false, detail: "no notification received yet" }
  await new NotificationInbox(db).reopen(latest.id)
  const result = await confirmNotification(container, latest.id)
  const after = (await payments.get(sessionId))!
  return { session_id: sessionId, state: after.status, changed: after.status !== row.status, detail: `notification ${result.outcome}` }
}

/** One pending API transfer: uuid endpoint → paid / failed / still pending / expired. */
export async function checkTransfer(container: MedusaContainer, row: OdemePaymentRow): Promise<CheckResult> {
  const db = container.resolve<Knex>(ContainerRegistrationKeys.PG_CONNECTION)
  const logger = container.resolve<Logger>(ContainerRegistrationKeys.LOGGER)
  const odeme = container.resolve<OdemeModuleService>(ODEME_MODULE)
  const payments = new PaymentStore(db)
  const now = Date.now()
  const base = { session_id: row.session_id }

  let record
  try {
    record = await odeme.client.getTransferByUuid(row.service_uuid!)
  } catch (err) {
    const msg = err instanceof OdemeApiError ? `${err.kind}${err.status ? ` ${err.status}` : ""}` : "error"
    await payments.update(row.session_id, {
      next_check_at: new Date(now + Math.min(nextCheckDelayMs(row.created_at, now), 5 * 60_000)),
      last_checked_at: new Date(now),
      last_result: `check failed: ${msg}`,
    })
    return { ...base, state: row.status, changed: false, detail: `service error (${msg}); retried later` }
  }

  const reported = stateFromSaleStatus(record.sale_status)
  const checked = { check_attempts: row.check_attempts + 1, last_checked_at: new Date(now), last_result: `sale_status ${record.sale_status}` }
  if (reported === "paid" || reported === "failed") {
    let verdict: Verdict = { outcome: reported }
    const mismatch = reported === "paid" ? moneyMismatch(record.br_price, record.br_currency, row) : null
    if (mismatch) verdict = { outcome: "mismatch", reason: `transfer record: ${mismatch}` }
    await payments.update(row.session_id, { ...checked, tracking_no: record.br_tracking_no || row.tracking_no })
    await applyVerdict(container, row, verdict, {
      id: `poll:${row.session_id}`,
      type: "bank_transfer",
      service_uuid: row.service_uuid,
      payload: { amount: record.br_price, currency: record.br_currency },
    })
    const after = (await payments.get(row.session_id))!
    return { ...base, state: after.status, changed: after.status !== row.status, detail: `service reports sale_status ${record.sale_status}` }
  }

  const expiresAt = new Date(row.created_at).getTime() + odeme.odemeOptions.transfer.expiryHours * 3_600_000
  if (now >= expiresAt) {
    const reason = `Transfer not received within ${odeme.odemeOptions.transfer.expiryHours} hours`
    const expired = await payments.transition(row.session_id, ["awaiting_transfer"], {
      ...checked,
      status: "expired",
      next_check_at: null,
      review_reason: reason,
    })
    if (expired && odeme.odemeOptions.transfer.cancelOrderOnExpiry) {
      const { orderId } = await medusaState(container, row.session_id)
      if (orderId) {
        await cancelOrderWorkflow(container)
          .run({ input: { order_id: orderId, no_notification: false } })
          .catch((e: Error) => logger.warn(`medusa-payment-odeme: could not cancel order ${orderId} of expired transfer: ${e.message}`))
      }
    }
    return { ...base, state: "expired", changed: !!expired, detail: reason }
  }

  await payments.update(row.session_id, { ...checked, next_check_at: new Date(now + nextCheckDelayMs(row.created_at, now)) })
  return { ...base, state: row.status, changed: false, detail: "still waiting for the transfer" }
}

