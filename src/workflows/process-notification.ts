import type { Logger, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { createStep, createWorkflow, StepResponse, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { backoffCeiling, type VerifyResult } from "../client"
import type { NotificationSettlement, OdemeNotificationRow, OdemePaymentRow } from "../modules/odeme/service"
import { judgeNotification, transferAnswer } from "../lib/judge"
import { reportedMoney } from "../lib/notification-shape"
import { NOTIFICATION_EVENT } from "../lib/notification-event"
import { odemeModule } from "../modules/odeme/resolve"
import { takeReturnVerifyBudget } from "../lib/return-verify-budget"
import { actOnDecision, applyServiceAnswer, type Applied } from "./payment-state/apply-service-answer"
import type { ServiceAnswer } from "../lib/payment-state/transitions"
import { errorText } from "../lib/error-text"
import type { NotificationOutcome } from "../modules/odeme/models/states"

export interface ProcessResult {
  notification_id: string
  outcome: string
  /** Processing will be tried again later. */
  retry?: boolean
}

/**
 * How an attempt ends. Times are epoch milliseconds: a step's output is the
 * workflow's data, which a workflow engine may keep as JSON.
 */
type AttemptEnd =
  | { state: "done"; outcome: NotificationOutcome; last_error?: string | null; verify_result?: unknown }
  | { state: "retry"; outcome: NotificationOutcome; last_error: string; at: number; verify_result?: unknown }
  | { state: "dead"; outcome: NotificationOutcome; last_error: string; verify_result?: unknown }
  | { state: "deferred"; at: number }

/**
 * One attempt as it goes down the steps. Each step returns it, never throws
 * for what the service or Medusa answered: once `end` is set the later steps
 * pass it on, so every failure that is a retry or dead settlement reaches the
 * last step and the claimed row is always settled. (A thrown step would fail
 * the workflow and leave the row claimed until its lease ends.)
 */
interface Attempt {
  id: string
  /** Not claimed (not due, or leased by another process): what the row already says. */
  unclaimed?: ProcessResult
  row?: OdemeNotificationRow
  /** The payment row, read once for the whole attempt. */
  payment?: OdemePaymentRow
  verify?: VerifyResult
  answer?: ServiceAnswer
  applied?: Applied
  end?: AttemptEnd
}

const open = (a: Attempt) => !a.unclaimed && !a.end

/**
 * 1. The inbox hands out the row only when it is due and not leased; the payment is read here, once. A delivery
 * nothing proved is a turn of its session's lane (lib/notification-lane.ts): the row claimed may be another of
 * the session's, newest first, so forged copies stored earlier cannot hold a genuine one back.
 */
const claimNotificationStep = createStep("odeme-claim-notification", async ({ id, exact }: ProcessInput, { container }) => {
  const odeme = odemeModule(container)
  const limits = odeme.odemeOptions.notifications
  const lane = exact ? "exact" : await odeme.laneOf(id, limits.verifyBudgetWindowSeconds)
  const row = await odeme.claimNotification(id, limits.leaseSeconds, lane)
  if (!row) {
    const current = await odeme.getNotification(id)
    return new StepResponse<Attempt>({ id, unclaimed: { notification_id: id, outcome: current?.outcome ?? current?.state ?? "unknown" } })
  }
  if (!row.session_id || !row.service_uuid || !row.status || !verifyFieldsOf(row).hash) {
    return new StepResponse<Attempt>({ id, row, end: { state: "done", outcome: "unverifiable" } })
  }
  const payment = await odeme.getPayment(row.session_id)
  if (!payment) return new StepResponse<Attempt>({ id, row, end: { state: "done", outcome: "unknown_session" } })
  return new StepResponse<Attempt>({ id, row, payment })
})

/** 2. The service's verify endpoint (spec §6.2: nothing else is proof), within the verify budgets. */
const verifyNotificationStep = createStep("odeme-verify-notification", async (a: Attempt, { container }) => {
  if (!open(a)) return new StepResponse(a)
  const odeme = odemeModule(container)
  const limits = odeme.odemeOptions.notifications
  const row = a.row!
  if (row.source === "return") {
    const store = takeReturnVerifyBudget(limits.returnVerifyBudgetPerStore, limits.verifyBudgetWindowSeconds)
    if (!store.ok) return new StepResponse<Attempt>({ ...a, end: { state: "deferred", at: store.retryAt.getTime() } })
  }
  // A delivery that proved who sent it is not one of the copies the budget is for.
  if (!row.trusted) {
    const budget = await odeme.takeVerifyBudget(a.payment!.session_id, limits.verifyBudgetPerSession, limits.verifyBudgetWindowSeconds)
    if (!budget.ok) return new StepResponse<Attempt>({ ...a, end: { state: "deferred", at: budget.retryAt.getTime() } })
  }
  try {
    const verify = await odeme.client.verifyNotification(verifyFieldsOf(row))
    return new StepResponse<Attempt>({ ...a, verify })
  } catch (err) {
    return new StepResponse<Attempt>({ ...a, end: retryOrDead(container, a, "verify_failed", `verify failed: ${errorText(err)}`) })
  }
})

/**
 * 3. The pure judgement of the verify answer against the session; for an API
 * transfer a success is judged on the transfer's own record instead (the
 * authenticated uuid endpoint covers its amount, verify does not).
 */
const judgeNotificationStep = createStep("odeme-judge-notification", async (a: Attempt, { container }) => {
  if (!open(a)) return new StepResponse(a)
  const odeme = odemeModule(container)
  const { row, payment, verify } = a as Required<Pick<Attempt, "row" | "payment" | "verify">>
  // The order id the service sent and verify was asked about: a reference now, the session id for older payments.
  const facts = {
    order_id: verifyFieldsOf(row).order_id.trim(),
    uuid: row.service_uuid!,
    status: row.status!,
    type: row.type,
    ...reportedMoney(row.payload),
  }
  const answer = judgeNotification(facts, verify, payment, odeme.odemeOptions)
  if (answer.kind === "pending") {
    return new StepResponse<Attempt>({ ...a, end: retryOrDead(container, a, "pending", "the service does not report a final status yet", verify) })
  }
  if (payment.flow !== "transfer_api" || (answer.kind !== "paid" && answer.kind !== "mismatch")) return new StepResponse<Attempt>({ ...a, answer })
  try {
    const record = await odeme.client.getTransferByUuid(answer.uuid)
    const told = transferAnswer(record, { service_uuid: answer.uuid, amount: payment.amount, currency: payment.currency })
    // Verify proved a success the record does not show yet: a transfer the poller asks about (due for a check)
    // is settled as "still waiting", and the poller finds the money; any other (expired, failed, canceled past
    // its deadline) is asked again here, or the money would be lost.
    if (told.kind === "pending" && !payment.next_check_at) {
      return new StepResponse<Attempt>({
        ...a,
        end: retryOrDead(container, a, "pending", "verify reports a success the transfer's record does not show yet", verify),
      })
    }
    return new StepResponse<Attempt>({ ...a, answer: told })
  } catch (err) {
    return new StepResponse<Attempt>({ ...a, end: retryOrDead(container, a, "verify_failed", `transfer record: ${errorText(err)}`, verify) })
  }
})

/** 4. The one transition: the table, the compare-and-set on the row read in step 1, the charge record. */
const applyAnswerStep = createStep("odeme-apply-answer", async (a: Attempt, { container }) => {
  if (!open(a)) return new StepResponse(a)
  try {
    const applied = await applyServiceAnswer(container, a.payment!.session_id, a.answer!, { act: false, read: a.payment })
    return new StepResponse<Attempt>({ ...a, applied })
  } catch (err) {
    return new StepResponse<Attempt>({ ...a, end: retryOrDead(container, a, "error", errorText(err), a.verify) })
  }
})

/**
 * 5. Medusa's side when the decision acts (any other attempt passes on): the capture onto the order
 * (settlePaid, which runs Medusa's processPaymentWorkflow under the session's
 * settle lock, with our checks around it), or the cancel of an unpaid
 * transfer's order.
 */
const actInMedusaStep = createStep("odeme-act-in-medusa", async (a: Attempt, { container }) => {
  if (!open(a) || a.applied!.decision.action === "none") return new StepResponse(a)
  try {
    return new StepResponse<Attempt>({ ...a, applied: await actOnDecision(container, a.applied!) })
  } catch (err) {
    // Medusa could not capture or complete yet: Medusa's reason is kept, and the notification is tried again.
    return new StepResponse<Attempt>({ ...a, end: retryOrDead(container, a, "error", errorText(err), a.verify) })
  }
})

/** 6. The inbox row is settled: done with its outcome, retry at a time, dead, or deferred. */
const settleNotificationStep = createStep("odeme-settle-notification", async (a: Attempt, { container }) => {
  if (a.unclaimed) return new StepResponse(a.unclaimed)
  const odeme = odemeModule(container)
  const row = a.row!
  const end: AttemptEnd = a.end ?? {
    state: "done",
    outcome: a.applied!.decision.outcome,
    verify_result: a.verify,
    last_error: a.answer!.kind === "invalid" ? a.answer!.reason : null,
  }
  if (end.state === "deferred") {
    await odeme.deferNotification(row.id, new Date(end.at))
    await scheduleRetry(container, row, end.at)
    return new StepResponse<ProcessResult>({ notification_id: row.id, outcome: "deferred", retry: true })
  }
  const settlement: NotificationSettlement =
    end.state === "retry"
      ? { state: "retry", outcome: end.outcome, last_error: end.last_error, next_attempt_at: new Date(end.at), verify_result: end.verify_result }
      : end
  await odeme.settleNotification(row.id, settlement)
  if (end.state === "retry") await scheduleRetry(container, row, end.at)
  const logger = container.resolve<Logger>(ContainerRegistrationKeys.LOGGER)
  const line = `medusa-payment-odeme: notification ${row.id} (${row.source}) for ${row.session_id} processed: ${end.outcome}`
  if (end.state === "done") logger.info(line)
  else logger.warn(`${line}; ${end.state === "dead" ? "marked dead" : `retry at ${new Date(end.at).toISOString()}`}: ${end.last_error}`)
  return new StepResponse<ProcessResult>({
    notification_id: row.id,
    outcome: end.state === "dead" ? "dead" : end.outcome,
    retry: end.state === "retry" || undefined,
  })
})

/**
 * THE path of a stored notification, for the webhook subscriber, the return
 * route, the poller and Admin: claim → verify → judge → apply the one
 * transition → Medusa's side when it acts → settle the row. Every step passes
 * an ended attempt on untouched, so the last step always settles what it
 * claimed.
 */
export const processNotificationWorkflow = createWorkflow("odeme-process-notification", (input: ProcessInput) => {
  const claimed = claimNotificationStep(input)
  const verified = verifyNotificationStep(claimed)
  const judged = judgeNotificationStep(verified)
  const applied = applyAnswerStep(judged)
  const acted = actInMedusaStep(applied)
  return new WorkflowResponse(settleNotificationStep(acted))
})

/**
 * Processes a stored notification (see processNotificationWorkflow): a turn of its session's lane, or with
 * `exact` that row itself (a person's retry, a check of the session's notifications).
 */
export async function processNotification(
  container: MedusaContainer,
  notificationId: string,
  opts: { exact?: boolean } = {}
): Promise<ProcessResult> {
  const { result } = await processNotificationWorkflow(container).run({ input: { id: notificationId, exact: opts.exact } })
  return result
}

interface ProcessInput {
  id: string
  exact?: boolean
}

/**
 * The fields verify is sent (spec §4.8), as the notification brought them (a redirect says `success`, a webhook
 * `successful`); rows stored before they were kept apart fall back to the payload's fields, then the columns.
 */
function verifyFieldsOf(row: OdemeNotificationRow): { order_id: string; uuid: string; status: string; hash: string } {
  const arrived = (row.payload.arrived ?? {}) as Partial<Record<"order_id" | "uuid" | "status" | "hash", string>>
  const hash = arrived.hash ?? row.payload.hash
  // The payload's own order_id before the session's id: a payment with a short reference is known to the service by it.
  const orderId = arrived.order_id ?? row.payload.order_id
  return {
    order_id: typeof orderId === "string" || typeof orderId === "number" ? String(orderId) : row.session_id!,
    uuid: arrived.uuid ?? row.service_uuid!,
    status: arrived.status ?? row.status!,
    hash: typeof hash === "string" || typeof hash === "number" ? String(hash) : "",
  }
}

/** A failure the row is tried again for (with backoff), or dead once its attempts are used up. */
function retryOrDead(container: MedusaContainer, a: Attempt, outcome: NotificationOutcome, error: string, verify?: unknown): AttemptEnd {
  const limits = odemeModule(container).odemeOptions.notifications
  const attempts = a.row!.attempts // this one included (counted when the row was claimed)
  if (attempts >= limits.maxAttempts) return { state: "dead", outcome, last_error: error, verify_result: verify }
  return { state: "retry", outcome, last_error: error, at: Date.now() + backoffMs(attempts, limits.retryBaseMs), verify_result: verify }
}

/**
 * 2 s, 4 s, 8 s … (from `notifications.retryBaseMs`) capped at 10 minutes,
 * with a little jitter (±15 %): a notification's retry should come near its
 * time, unlike the client's full-jitter retries of many concurrent requests.
 */
export function backoffMs(attempt: number, baseMs = 2_000): number {
  return Math.round(backoffCeiling(attempt, baseMs, 600_000) * (0.85 + Math.random() * 0.3))
}

/** Asks for the notification to be processed again at `at`; the poller drains due rows anyway. */
async function scheduleRetry(container: MedusaContainer, row: Pick<OdemeNotificationRow, "id" | "trusted">, at: number): Promise<void> {
  try {
    const data = { id: row.id, trusted: row.trusted || undefined }
    await container.resolve(Modules.EVENT_BUS).emit({ name: NOTIFICATION_EVENT, data }, { delay: Math.max(0, at - Date.now()) })
  } catch {
    // The stored row is due anyway; the poller picks it up.
  }
}
