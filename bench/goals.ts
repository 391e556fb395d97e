/**
 * Issue 13's goals, judged from results.json's figures (ratios measured side
 * by side in one run). Shared by the bench (written into results.json) and
 * scripts/bench-report.js (printed).
 */
export interface Goal {
  goal: string
  met: boolean | null
  detail: string
}

/** A burst beyond 200 at once: the plugin's p99 at most this many times the core route's. */
const BURST_P99_VS_CORE = 1.3

export function judgeGoals(r: any): Goal[] {
  const goals: Goal[] = []
  const burst: any[] = r.burst ?? []
  // A burst larger than 200 is answered at the pace of Medusa's own HTTP stack (a fixed CPU cost a request):
  // its p99 is judged against the same burst on Medusa's core hook route, sent beside it.
  const p99Met = (b: any) => (b.concurrent <= 200 ? b.p99 <= 300 : b.core_p99 !== undefined && b.p99 <= b.core_p99 * BURST_P99_VS_CORE)
  goals.push({
    goal: `1. burst: 0 non-2xx, each stored once and processed once; p99 ack ≤ 300 ms up to 200 at once, ≤ ${BURST_P99_VS_CORE}× the core route's beyond`,
    met: burst.length ? burst.every((b) => b.non2xx === 0 && p99Met(b) && b.stored_once === b.concurrent && b.processed_once === b.concurrent) : null,
    detail: burst
      .map(
        (b) =>
          `${b.concurrent} at once: non-2xx ${b.non2xx}, p99 ${b.p99} ms${b.core_p99 === undefined ? "" : ` (core route ${b.core_p99} ms)`}, stored once ${b.stored_once}, processed once ${b.processed_once}`
      )
      .join("; "),
  })
  const plugin = (r.webhook_ingest ?? []).filter((x: any) => x.key === "plugin")
  goals.push({
    goal: "2. ingest ≥ 0.8× the one-INSERT route at 10 and 100 connections",
    met: plugin.length ? plugin.every((x: any) => x.rps_ratio_vs_insert_limit >= 0.8) : null,
    detail: plugin.map((x: any) => `${x.connections} conn: ${x.rps_ratio_vs_insert_limit}×`).join(", "),
  })
  const passes = (r.poller ?? []).filter((x: any) => x.workers === 1 && x.where === "in-process pass")
  goals.push({
    goal: "3. poller pass ≤ 1.3× its limit; heap growth ≤ 150 MB in a 10,000 pass",
    met: passes.length ? passes.every((x: any) => x.ratio_to_limit <= 1.3 && (x.transfers < 10_000 || x.heap_growth_mb <= 150)) : null,
    detail: passes
      .map(
        (x: any) =>
          `${x.transfers}/c${x.concurrency}: ${x.ratio_to_limit}×, heap +${x.heap_growth_mb} MB (${x.heap_retained_mb ?? "?"} MB kept after a GC)`
      )
      .join("; "),
  })
  const two = (r.poller ?? []).find((x: any) => x.workers === 2)
  goals.push({
    goal: "4. two workers ≤ 0.6× one worker's time, each transfer checked once",
    met: two ? two.ratio_vs_single_worker <= 0.6 && two.checked_once === two.transfers : null,
    detail: two
      ? `${two.ratio_vs_single_worker}× (first check to last; due to done ${two.due_to_done_ratio_vs_single_worker ?? "?"}×), checked once ${two.checked_once}/${two.transfers}`
      : (r.workers_skipped ?? "not measured"),
  })
  const grown = (r.scale ?? []).find((x: any) => x.rows > 0)
  goals.push({
    goal: "5. with 1M rows: ingest p50 and claim ≤ 1.2× the empty tables",
    met: grown ? grown.ingest_p50_ratio_vs_empty <= 1.2 && grown.claim_ms_ratio_vs_empty <= 1.2 : null,
    detail: grown ? `${grown.rows} rows: ingest p50 ${grown.ingest_p50_ratio_vs_empty}×, claim ${grown.claim_ms_ratio_vs_empty}×` : "not measured",
  })
  return goals
}
