import type { MedusaContainer } from "@medusajs/framework/types"
import { processNotification, type ProcessResult } from "../workflows/process-notification"
import { odemeModule } from "../modules/odeme/resolve"

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
