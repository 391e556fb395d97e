import type { MedusaContainer } from "@medusajs/framework/types"
import { ingestQuiet } from "../../lib/ingest-quiet"
import { odemeModule } from "../../modules/odeme/resolve"
import { processNotification, type ProcessResult } from "../process-notification"

/**
 * How stored notifications get run: the subscriber's bounded queue (which
 * waits while webhooks are being acknowledged) and the poller's drain of due
 * rows. What one run does is the workflow in src/workflows/process-notification.ts.
 *
 * Runs `processNotification` for the subscriber with a per-process bound:
 * at most PROCESS_CONCURRENCY at once, at most QUEUE_SIZE waiting. A
 * notification beyond that is not lost: its row stays due and the poller
 * drains it. Ingest never waits for this (the route answers after its one
 * write), so a burst only grows the queue, and the queue drains at the pace
 * its few connections allow.
 */
export function processQueued(container: MedusaContainer, id: string, { ahead = false }: { ahead?: boolean } = {}): Promise<ProcessResult | null> {
  if (running < PROCESS_CONCURRENCY) return runNow(container, id)
  if (waiting.length >= QUEUE_SIZE && !ahead) return Promise.resolve(null)
  // A delivery that proved who sent it (the service's named address) goes before whatever a flood queued.
  return new Promise((resolve) => (ahead ? waiting.unshift : waiting.push).call(waiting, () => resolve(runNow(container, id))))
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

/** Processes inbox rows that are due (first attempts left by a full queue or a crash, and retries). Used by the poller. */
export async function processDueNotifications(container: MedusaContainer, limit = 50): Promise<ProcessResult[]> {
  const ids = await odemeModule(container).dueNotificationIds(limit)
  const results: ProcessResult[] = []
  for (const id of ids) results.push(await processNotification(container, id))
  return results
}
