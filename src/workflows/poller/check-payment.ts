import type { MedusaContainer } from "@medusajs/framework/types"
import { OdemeApiError, type TransferRecord } from "../../client"
import type { CheckedTransfer, OdemePaymentRow } from "../../modules/odeme/service"
import type { PaymentState } from "../../modules/odeme/models/states"
import type { CheckCode } from "../../lib/check-code"
import { transferAnswer } from "../../lib/judge"
import { odemeModule } from "../../modules/odeme/resolve"
import type { ServiceAnswer } from "../../lib/payment-state/transitions"
import { processNotification } from "../process-notification"
import { errorText } from "../../lib/error-text"
import { cancelAbandonedOrder } from "../order-rules/abandoned-order"
import { applyServiceAnswer } from "../payment-state/apply-service-answer"
import {
  afterTransferCheck,
  answerWithExpiry,
  nextCheckDelayMs,
  transferCheckVerdict,
  transferCreatedAt,
  transferDetails,
  transferExpiresAt,
  unchangedAndAskedAgain,
} from "../../lib/transfer-check"

export type { CheckCode }

export interface CheckResult {
  session_id: string
  state: PaymentState
  changed: boolean
  code: CheckCode
  detail: string
}

/**
 * Asks the service about one payment and applies its answer. For API
 * transfers the uuid endpoint is the service's own record (queried with the
 * secret key); for checkout payments the session's stored notifications are
 * verified again, each on its own. Used by Admin "Check now".
 */
export async function checkPayment(container: MedusaContainer, sessionId: string): Promise<CheckResult> {
  const odeme = odemeModule(container)
  const row = await odeme.getPayment(sessionId)
  if (!row) return { session_id: sessionId, state: "pending", changed: false, code: "unknown_session", detail: "unknown session" }
  if (row.service_uuid && row.flow === "transfer_api") return checkTransfer(container, row)

  const ids = await odeme.verifiableNotificationIds(sessionId, 10)
  if (!ids.length) {
    // A card's return names no service payment (spec §6.1: transaction_id, no uuid): nothing to verify it with. Only
    // the webhook can confirm it, and the customer may well have paid: not "probably did not pay".
    if (await odeme.hasPaidReturn(sessionId)) {
      return {
        session_id: sessionId,
        state: row.status,
        changed: false,
        code: "unverifiable_return",
        detail: "the customer came back saying paid; no notification to verify",
      }
    }
    return { session_id: sessionId, state: row.status, changed: false, code: "no_notification", detail: "no notification received yet" }
  }
  const outcomes: string[] = []
  for (const id of ids) {
    await odeme.reopenNotification(id)
    outcomes.push((await processNotification(container, id, { exact: true })).outcome)
  }
  const after = (await odeme.getPayment(sessionId))!
  return {
    session_id: sessionId,
    state: after.status,
    changed: after.status !== row.status,
    code: "notifications_checked",
    detail: `notifications: ${outcomes.join(", ")}`,
  }
}

/** One API transfer: uuid endpoint → paid / failed / still pending / expired. Used by the poller and "Check now". */
export async function checkTransfer(
  container: MedusaContainer,
  row: OdemePaymentRow,
  /** The poller's page writer: a check that changes nothing hands it its details instead of waiting for a commit. */
  recordLater?: (check: CheckedTransfer) => void
): Promise<CheckResult> {
  const odeme = odemeModule(container)
  const now = Date.now()
  const base = { session_id: row.session_id }
  // From the transfer's creation, not from when the customer chose bank transfer (the session's row).
  const createdAt = transferCreatedAt(row)

  // Paid is proven already (its answer was verified when it was written): what is left is Medusa's capture, which
  // must not wait on the service answering again. Settle's failures count towards "needs attention".
  if (row.status === "paid") return settleProvenTransfer(container, row)

  let record: TransferRecord
  try {
    record = await odeme.client.getTransferByUuid(row.service_uuid!)
  } catch (err) {
    const msg = err instanceof OdemeApiError ? `${err.kind}${err.status ? ` ${err.status}` : ""}` : "error"
    await odeme.countFailure(row.session_id, "check", true)
    await odeme.updatePaymentDetails(row.session_id, {
      next_check_at: new Date(now + Math.min(nextCheckDelayMs(createdAt, now), 5 * 60_000)),
      last_checked_at: new Date(now),
      last_result: `check failed: ${msg}`,
    })
    // A 404 for the uuid: the service does not (or no longer) know this transfer; the merchant must look in the panel.
    const code = err instanceof OdemeApiError && err.status === 404 ? "not_found" : "service_error"
    return { ...base, state: row.status, changed: false, code, detail: `service error (${msg}); retried later` }
  }

  // What the record says is kept with whatever follows, in one write; the state goes through the transition function.
  const details = { ...transferDetails(record, row), check_attempts: row.check_attempts + 1, ...(row.check_failures ? { check_failures: 0 } : {}) }
  const { expiryHours } = odeme.odemeOptions.transfer
  const expiresAt = transferExpiresAt(createdAt, expiryHours).getTime()
  const answer = answerWithExpiry(transferAnswer(record, row), row.status, now, expiresAt, expiryHours)

  let payment: OdemePaymentRow
  try {
    payment = (await applyServiceAnswer(container, row.session_id, answer, { act: true, read: row })).payment
    if (payment === row && recordLater && unchangedAndAskedAgain(answer.kind, row.status, now, expiresAt)) {
      recordLater({
        session_id: row.session_id,
        version: row.version,
        details: { ...details, next_check_at: new Date(now + nextCheckDelayMs(createdAt, now)) },
      })
      return { ...base, state: row.status, changed: false, code: "still_waiting", detail: "still waiting for the transfer" }
    }
  } catch (err) {
    // Paid at the service but Medusa could not capture yet: keep the transfer due so the next run settles it.
    const msg = errorText(err)
    await odeme.updatePaymentDetails(row.session_id, {
      ...details,
      next_check_at: new Date(now + 60_000),
      last_result: `settling failed: ${msg}`.slice(0, 500),
    })
    return { ...base, state: row.status, changed: false, code: "settling_failed", detail: `settling failed (${msg}); retried later` }
  }
  const { asksAgain, mayEndOrder } = afterTransferCheck(payment.status, answer.kind, now, expiresAt)
  // Before the row's next check is cleared, so a failure here is checked again.
  const orderWaits = mayEndOrder ? (await cancelAbandonedOrder(container, payment)) === "wait" : false
  await odeme.updatePaymentDetails(row.session_id, {
    ...details,
    next_check_at: asksAgain || orderWaits ? new Date(now + nextCheckDelayMs(createdAt, now)) : null,
  })
  const { code, detail } = transferCheckVerdict(answer.kind, payment.status, record.sale_status, expiryHours)
  return { ...base, state: payment.status, changed: payment.status !== row.status, code, detail }
}

/** A transfer the service proved paid and Medusa has not settled yet (a capture that failed): settle it again. */
async function settleProvenTransfer(container: MedusaContainer, row: OdemePaymentRow): Promise<CheckResult> {
  const odeme = odemeModule(container)
  const base = { session_id: row.session_id }
  const answer: ServiceAnswer = { kind: "paid", uuid: row.service_uuid!, amount: row.amount, currency: row.currency, type: "bank_transfer" }
  try {
    const { payment } = await applyServiceAnswer(container, row.session_id, answer, { act: true, read: row })
    await odeme.updatePaymentDetails(row.session_id, { last_checked_at: new Date(), next_check_at: null })
    const detail = payment.status === "paid" ? "paid; settled in Medusa" : `paid; Medusa's side made it ${payment.status}`
    return { ...base, state: payment.status, changed: payment.status !== row.status, code: "service_status", detail }
  } catch (err) {
    const msg = errorText(err)
    await odeme.updatePaymentDetails(row.session_id, {
      next_check_at: new Date(Date.now() + 60_000),
      last_result: `settling failed: ${msg}`.slice(0, 500),
    })
    return { ...base, state: row.status, changed: false, code: "settling_failed", detail: `settling failed (${msg}); retried later` }
  }
}

export { transferAnswer }
