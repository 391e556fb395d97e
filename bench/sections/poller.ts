import { pollTransfers } from "../../src/workflows/poller/poll-transfers"
import { insertPendingTransfers, transferSessionIds } from "../../integration-tests/utils/bulk-transfers"
import { CFG, log, measureHeap, medianOfRuns, round } from "../support"
import type { BenchContext } from "./context"

/**
 * One full poller pass in this process (one worker) over N due transfers,
 * the emulator answering each check after CFG.pollerDelayMs: against its
 * limit N × latency / concurrency, with the heap's growth during the pass.
 */
export async function pollerPasses(ctx: BenchContext) {
  const db = ctx.db()
  const out: any[] = []
  for (const [n, concurrency] of CFG.pollerPasses) {
    log(`poller: ${n} due transfers, concurrency ${concurrency}, ${CFG.runs} runs`)
    const limitMs = (n * CFG.pollerDelayMs) / concurrency
    const figures = await medianOfRuns(async () => {
      await db("odeme_payment").where("session_id", "like", "payses_benchpoll%").delete()
      // Transfers the emulator holds, so each check is the ordinary "still waiting" answer.
      const { result } = await ctx.emulator.control("POST", "/_control/transfers/bulk", { orders: transferSessionIds(n, "benchpoll") })
      await insertPendingTransfers(
        db,
        n,
        "benchpoll",
        result.map((t: { uuid: string }) => t.uuid)
      )
      await ctx.emulator.control("DELETE", "/_control/faults")
      await ctx.emulator.control("POST", "/_control/faults", { endpoint: "uuid", mode: "slow", delayMs: CFG.pollerDelayMs, count: n })
      const m = await measureHeap(() => pollTransfers(ctx.container(), { maxPerRun: n, concurrency, timeBudgetMs: 600_000 }))
      const ms = m.ms
      await ctx.emulator.control("DELETE", "/_control/faults")
      await db("odeme_payment").where("session_id", "like", "payses_benchpoll%").delete()
      return {
        checked: m.result.checked,
        pass_ms: Math.round(ms),
        ratio_to_limit: round(ms / limitMs, 2),
        heap_before_mb: m.heap_before_mb,
        heap_peak_mb: m.heap_peak_mb,
        heap_growth_mb: m.heap_growth_mb,
        heap_retained_mb: m.heap_retained_mb,
      }
    })
    out.push({ transfers: n, concurrency, workers: 1, where: "in-process pass", limit_ms: Math.round(limitMs), ...figures })
  }
  return out
}
