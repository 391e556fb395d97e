import type { MedusaContainer } from "@medusajs/framework/types"
import { checkTransfer, type CheckResult } from "./check-payment"
import { odemeModule } from "./odeme-module"
import { processDueNotifications } from "./process-notification"

export interface PollSummary {
  checked: number
  paid: number
  failed: number
  expired: number
  errors: number
  notifications: number
  stopped_early: boolean
}

/**
 * One run of the poller. Due transfers are claimed in small batches with an
 * indexed query (newest first), checked with a bounded concurrency, and the
 * run stops claiming when its bound (count or time) is reached so it never
 * overlaps the next one; unclaimed work simply stays due. Memory stays flat:
 * only one batch is held at a time.
 */
export async function pollTransfers(
  container: MedusaContainer,
  opts: { maxPerRun?: number; concurrency?: number; timeBudgetMs?: number; batchSize?: number } = {}
): Promise<PollSummary> {
  const odeme = odemeModule(container)
  const cfg = odeme.odemeOptions.transfer
  const maxPerRun = opts.maxPerRun ?? cfg.pollMaxPerRun
  const concurrency = opts.concurrency ?? cfg.pollConcurrency
  const deadline = Date.now() + (opts.timeBudgetMs ?? 45_000)
  const batchSize = Math.min(opts.batchSize ?? 100, maxPerRun)
  const summary: PollSummary = { checked: 0, paid: 0, failed: 0, expired: 0, errors: 0, notifications: 0, stopped_early: false }

  while (summary.checked < maxPerRun) {
    if (Date.now() >= deadline) {
      summary.stopped_early = true
      break
    }
    // The lease outlives the run, so a claimed row is never taken twice.
    const batch = await odeme.claimDueTransfers(Math.min(batchSize, maxPerRun - summary.checked), 120)
    if (!batch.length) break
    await mapLimit(batch, concurrency, async (row) => {
      let r: CheckResult | null = null
      try {
        r = await checkTransfer(container, row)
      } catch {
        summary.errors++
      }
      summary.checked++
      if (r?.state === "paid") summary.paid++
      else if (r?.state === "failed") summary.failed++
      else if (r?.state === "expired") summary.expired++
      else if (r?.detail.startsWith("service error")) summary.errors++
    })
  }
  summary.notifications = (await processDueNotifications(container, 100)).length
  return summary
}

async function mapLimit<T>(items: T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const item = items[next++]
      await fn(item)
    }
  })
  await Promise.all(workers)
}
