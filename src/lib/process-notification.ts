import type { Logger, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { OdemeApiError, backoffCeiling } from "../client"
import type OdemeModuleService from "../modules/odeme/service"
import type { NotificationSettlement, OdemeNotificationRow } from "../modules/odeme/service"
import { judgeNotification, transferAnswer } from "./judge"
import { NOTIFICATION_EVENT } from "./notification-event"
import { odemeModule } from "./odeme-module"
import { takeReturnVerifyBudget } from "./return-verify-budget"
import { applyServiceAnswer } from "./payment-state/apply-service-answer"

export interface ProcessResult {
  notification_id: string
  outcome: string
  /** Processing will be tried again later. */
  retry?: boolean
}

type AttemptEnd = NotificationSettlement | { state: "deferred"; at: Date }

/**
 * THE path of a stored notification, for the webhook subscriber, the return
 * route, the poller and Admin. Top to bottom, each step once:
 *   1. the inbox hands out the row, only when it is due;
 *   2. the service's verify endpoint is asked (spec §6.2: nothing else is proof);
 *   3. a pure judgement turns the answer into a ServiceAnswer for this session;
 *   4. the one transition function moves the payment and Medusa;
 *   5. the inbox settles the row: done, retry at a time, or dead.
 */
export async function processNotification(container: MedusaContainer, notificationId: string): Promise<ProcessResult> {
  const odeme = odemeModule(container)
  const logger = container.resolve<Logger>(ContainerRegistrationKeys.LOGGER)

  const row = await odeme.claimNotification(notificationId, odeme.odemeOptions.notifications.leaseSeconds)
  if (!row) {
    const current = await odeme.getNotification(notificationId)
    return { notification_id: notificationId, outcome: current?.outcome ?? current?.state ?? "unknown" }
  }

  const end = await attempt(container, odeme, row)

  if (end.state === "deferred") {
    await odeme.deferNotification(row.id, end.at)
    await scheduleRetry(container, row.id, end.at)
    return { notification_id: row.id, outcome: "deferred", retry: true }
  }
  await odeme.settleNotification(row.id, end)
  if (end.state === "retry") await scheduleRetry(container, row.id, end.next_attempt_at)
  const line = `medusa-payment-odeme: notification ${row.id} (${row.source}) for ${row.session_id} processed: ${end.outcome}`
  if (end.state === "done") logger.info(line)
  else logger.warn(`${line}; ${end.state === "dead" ? "marked dead" : `retry at ${end.next_attempt_at.toISOString()}`}: ${end.last_error}`)
  return { notification_id: row.id, outcome: end.state === "dead" ? "dead" : end.outcome, retry: end.state === "retry" || undefined }
}

async function attempt(container: MedusaContainer, odeme: OdemeModuleService, row: OdemeNotificationRow): Promise<AttemptEnd> {
  const options = odeme.odemeOptions
  const hash = row.payload.hash
  if (!row.session_id || !row.service_uuid || !row.status || typeof hash !== "string") return { state: "done", outcome: "unverifiable" }
  const payment = await odeme.getPayment(row.session_id)
  if (!payment) return { state: "done", outcome: "unknown_session" }

  if (row.source === "return") {
    const store = takeReturnVerifyBudget(options.notifications.returnVerifyBudgetPerStore, options.notifications.verifyBudgetWindowSeconds)
    if (!store.ok) return { state: "deferred", at: store.retryAt }
  }
  const budget = await odeme.takeVerifyBudget(
    payment.session_id,
    options.notifications.verifyBudgetPerSession,
    options.notifications.verifyBudgetWindowSeconds
  )
  if (!budget.ok) return { state: "deferred", at: budget.retryAt }

  let verify
  try {
    // The notification's own fields, as they arrived (a redirect says `success`, a webhook `successful`).
    const arrived = (row.payload.arrived ?? {}) as Partial<Record<"order_id" | "uuid" | "status" | "hash", string>>
    verify = await odeme.client.verifyNotification({
      order_id: arrived.order_id ?? row.session_id,
      uuid: arrived.uuid ?? row.service_uuid,
      status: arrived.status ?? row.status,
      hash: arrived.hash ?? hash,
    })
  } catch (err) {
    return retryOrDead(row, options.notifications, "verify_failed", `verify failed: ${err instanceof OdemeApiError ? err.message : String(err)}`)
  }

  let answer = judgeNotification(
    {
      order_id: row.session_id,
      uuid: row.service_uuid,
      status: row.status,
      type: row.type,
      amount: row.payload.amount as string | number | undefined,
      currency: row.payload.currency as string | undefined,
    },
    verify,
    payment,
    options
  )
  if (answer.kind === "pending") {
    return retryOrDead(row, options.notifications, "pending", "the service does not report a final status yet", verify)
  }
  if (payment.flow === "transfer_api" && (answer.kind === "paid" || answer.kind === "mismatch")) {
    // A notification's amount is not covered by verify; an API transfer's own record is (authenticated uuid endpoint).
    try {
      answer = transferAnswer(await odeme.client.getTransferByUuid(answer.uuid), { service_uuid: answer.uuid, amount: payment.amount, currency: payment.currency })
    } catch (err) {
      return retryOrDead(row, options.notifications, "verify_failed", `transfer record: ${err instanceof OdemeApiError ? err.message : String(err)}`, verify)
    }
  }

  try {
    const { decision } = await applyServiceAnswer(container, payment.session_id, answer, { act: true })
    return { state: "done", outcome: decision.outcome, verify_result: verify, last_error: answer.kind === "invalid" ? answer.reason : null }
  } catch (err) {
    // Medusa could not capture or complete yet: Medusa's reason is kept, and the notification is tried again.
    return retryOrDead(row, options.notifications, "error", err instanceof Error ? err.message : String(err), verify)
  }
}

function retryOrDead(
  row: OdemeNotificationRow,
  limits: { maxAttempts: number; retryBaseMs: number },
  outcome: string,
  error: string,
  verify?: unknown
): NotificationSettlement {
  const attempts = row.attempts // this one included (counted when the row was claimed)
  if (attempts >= limits.maxAttempts) return { state: "dead", outcome, last_error: error, verify_result: verify }
  const next_attempt_at = new Date(Date.now() + backoffMs(attempts, limits.retryBaseMs))
  return { state: "retry", outcome, last_error: error, next_attempt_at, verify_result: verify }
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
async function scheduleRetry(container: MedusaContainer, id: string, at: Date): Promise<void> {
  try {
    await container.resolve(Modules.EVENT_BUS).emit({ name: NOTIFICATION_EVENT, data: { id } }, { delay: Math.max(0, at.getTime() - Date.now()) })
  } catch {
    // The stored row is due anyway; the poller picks it up.
  }
}

/**
 * Runs `processNotification` for the subscriber with a per-process bound:
 * at most PROCESS_CONCURRENCY at once, at most QUEUE_SIZE waiting. A
 * notification beyond that is not lost: its row stays due and the poller
 * drains it. Ingest never waits for this (the route answers after its one
 * write), so a burst only grows the queue, and the queue drains at the pace
 * its few connections allow.
 */
export function processQueued(container: MedusaContainer, id: string): Promise<ProcessResult | null> {
  if (running < PROCESS_CONCURRENCY) return runNow(container, id)
  if (waiting.length >= QUEUE_SIZE) return Promise.resolve(null)
  return new Promise((resolve) => waiting.push(() => resolve(runNow(container, id))))
}

/**
 * Each attempt holds about one database connection at a time; 2 leaves most
 * of Medusa's pool (10 by default) to the webhook route's single write and to
 * Medusa, and leaves the CPU to acknowledging a burst first.
 */
const PROCESS_CONCURRENCY = 2
/** Ids only; beyond it a row waits for the poller, which loses nothing. */
const QUEUE_SIZE = 10_000

let running = 0
const waiting: Array<() => void> = []

async function runNow(container: MedusaContainer, id: string): Promise<ProcessResult> {
  running++
  try {
    await ingestQuiet()
    return await processNotification(container, id)
  } finally {
    running--
    waiting.shift()?.()
  }
}

/**
 * Acknowledging comes first: while webhooks are being taken in by this
 * process, processing waits (at most MAX_YIELD_MS), so a burst is answered
 * at the pace of its one write each and the queue drains after it. Waiting
 * ends once no webhook is between its arrival and its answer and none came
 * in the last QUIET_MS. A single notification waits about QUIET_MS.
 *
 * A pause in arrivals alone is not quiet: under a burst a garbage
 * collection or a slow statement leaves the route without new entries for
 * longer than QUIET_MS while many webhooks still wait for their write, and
 * processing that started then took the cores from their answers.
 */
export function noteIngest(): () => void {
  ingesting++
  lastIngestAt = Date.now()
  let ended = false
  return () => {
    if (ended) return
    ended = true
    ingesting--
    lastIngestAt = Date.now()
  }
}

const QUIET_MS = 15
const MAX_YIELD_MS = 2_000
let lastIngestAt = 0
let ingesting = 0

/** Resolves when processing may start (see noteIngest). */
export async function ingestQuiet(): Promise<void> {
  const giveUpAt = Date.now() + MAX_YIELD_MS
  for (;;) {
    const gap = Date.now() - lastIngestAt
    if ((ingesting === 0 && gap >= QUIET_MS) || Date.now() >= giveUpAt) return
    await new Promise((r) => setTimeout(r, ingesting === 0 ? QUIET_MS - gap : QUIET_MS))
  }
}

/** Processes inbox rows that are due (first attempts left by a full queue or a crash, and retries). Used by the poller. */
export async function processDueNotifications(container: MedusaContainer, limit = 50): Promise<ProcessResult[]> {
  const ids = await odemeModule(container).dueNotificationIds(limit)
  const results: ProcessResult[] = []
  for (const id of ids) results.push(await processNotification(container, id))
  return results
}
