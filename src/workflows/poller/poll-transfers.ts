import type { MedusaContainer } from "@medusajs/framework/types"
import type { CheckedTransfer, OdemePaymentRow } from "../../modules/odeme/service"
import { checkTransfer, type CheckResult } from "./check-payment"
import { odemeModule } from "../../modules/odeme/resolve"
import { processDueNotifications } from "../intake/processing-queue"
import { reconcile, type ReconcileSummary } from "./reconcile"

export interface PollSummary {
  checked: number
  paid: number
  failed: number
  expired: number
  errors: number
  notifications: number
  stopped_early: boolean
  reconciled?: ReconcileSummary
}

export interface PollOptions {
  maxPerRun?: number
  concurrency?: number
  timeBudgetMs?: number
  /** Rows claimed per query (a page). */
  batchSize?: number
  /** Check due API transfers (default true; a scheduled pass passes `transfer.pollerEnabled`); the inbox and the reconciler run either way. */
  transfers?: boolean
}

/** How long a claimed row is not handed to another poller: longer than any pass. */
const LEASE_SECONDS = 120

/**
 * One pass of the poller. Due transfers are claimed a page at a time with an
 * indexed query and checked by `concurrency` loops that never wait for a
 * page to finish: the next page is claimed while fewer than `concurrency`
 * rows are left, so the service always has `concurrency` requests in flight
 * and at most about one page plus `concurrency` rows are held in memory.
 * The pass stops claiming at its bound (count or time), so it never overlaps
 * the next one; unclaimed work simply stays due. Several passes at once (one
 * per worker) share the due rows: the claim's lease gives each row to one.
 */
export async function pollTransfers(container: MedusaContainer, opts: PollOptions = {}): Promise<PollSummary> {
  const odeme = odemeModule(container)
  const cfg = odeme.odemeOptions.transfer
  const maxPerRun = opts.maxPerRun ?? cfg.pollMaxPerRun
  const concurrency = opts.concurrency ?? cfg.pollConcurrency
  const deadline = Date.now() + (opts.timeBudgetMs ?? 45_000)
  const pageSize = Math.min(opts.batchSize ?? 100, maxPerRun)
  const summary: PollSummary = { checked: 0, paid: 0, failed: 0, expired: 0, errors: 0, notifications: 0, stopped_early: false }

  const pages = new PageSource((n) => odeme.claimDueTransfers(n, LEASE_SECONDS), {
    pageSize,
    maxPerRun: opts.transfers === false ? 0 : maxPerRun,
    deadline,
    lowWater: concurrency,
  })
  const checks = new CheckWriter((batch) => odeme.recordChecks(batch), pageSize)
  const loop = async () => {
    for (let row = await pages.next(); row; row = await pages.next()) {
      let r: CheckResult | null = null
      try {
        r = await checkTransfer(container, row, (c) => checks.add(c))
      } catch {
        summary.errors++
      }
      summary.checked++
      if (r?.state === "paid") summary.paid++
      else if (r?.state === "failed") summary.failed++
      else if (r?.state === "expired") summary.expired++
      else if (r?.detail.startsWith("service error")) summary.errors++
    }
  }
  await Promise.all(Array.from({ length: concurrency }, loop))
  summary.errors += await checks.close()
  if (pages.failure) throw pages.failure
  summary.stopped_early = pages.stoppedEarly
  summary.notifications = (await processDueNotifications(container, 100)).length
  summary.reconciled = await reconcile(container)
  return summary
}

/** Hands out claimed rows one by one, claiming the next page before the current one runs dry. */
class PageSource {
  private buffer: OdemePaymentRow[] = []
  private claiming: Promise<void> | null = null
  private claimed = 0
  private done = false
  stoppedEarly = false
  failure: unknown = null

  constructor(
    private readonly claim: (n: number) => Promise<OdemePaymentRow[]>,
    private readonly bounds: { pageSize: number; maxPerRun: number; deadline: number; lowWater: number }
  ) {}

  async next(): Promise<OdemePaymentRow | null> {
    for (;;) {
      if (this.buffer.length <= this.bounds.lowWater && !this.done) void this.refill()
      const row = this.buffer.shift()
      if (row) return row
      if (this.done && !this.claiming) return null
      await this.claiming
    }
  }

  private refill(): Promise<void> {
    this.claiming ??= this.claimPage().finally(() => (this.claiming = null))
    return this.claiming
  }

  private async claimPage(): Promise<void> {
    const want = Math.min(this.bounds.pageSize, this.bounds.maxPerRun - this.claimed)
    if (want <= 0) return void (this.done = true)
    if (Date.now() >= this.bounds.deadline) {
      this.stoppedEarly = true
      return void (this.done = true)
    }
    try {
      const page = await this.claim(want)
      this.claimed += page.length
      this.buffer.push(...page)
      if (page.length < want) this.done = true
    } catch (err) {
      this.failure = err
      this.done = true
    }
  }
}

/**
 * Writes what the checks that changed nothing learned, a page at a time, so
 * the pass keeps its requests in flight instead of waiting on one commit per
 * transfer. A write that fails loses nothing: those rows stay leased and are
 * checked again when the lease ends.
 */
class CheckWriter {
  private batch: CheckedTransfer[] = []
  /** Only the writes still in flight: a pass of thousands of checks holds no page it has written. */
  private writes = new Set<Promise<void>>()
  private failed = 0

  constructor(
    private readonly write: (batch: CheckedTransfer[]) => Promise<number>,
    private readonly size: number
  ) {}

  add(check: CheckedTransfer): void {
    this.batch.push(check)
    if (this.batch.length >= this.size) this.flush()
  }

  /** Writes what is left and waits for every write; the number of checks whose write failed. */
  async close(): Promise<number> {
    this.flush()
    await Promise.all(this.writes)
    return this.failed
  }

  private flush(): void {
    if (!this.batch.length) return
    const batch = this.batch
    this.batch = []
    const write: Promise<void> = this.write(batch).then(
      () => void this.writes.delete(write),
      () => {
        this.failed += batch.length
        this.writes.delete(write)
      }
    )
    this.writes.add(write)
  }
}
