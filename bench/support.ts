/** Small helpers of the bench: figures, runs, memory. Nothing here asserts a timing. */
const num = (name: string, fallback: number) => (process.env[name] ? Number(process.env[name]) : fallback)
const list = (name: string, fallback: string) => (process.env[name] ?? fallback).split(",").filter(Boolean).map(Number)

/** Every knob of `npm run bench` (see scripts/bench.js for the list). */
export const CFG = {
  runs: num("BENCH_RUNS", 3),
  ingestDurationS: num("BENCH_INGEST_SECONDS", 4),
  ingestConnections: list("BENCH_INGEST_CONNECTIONS", "10,100"),
  burstSizes: list("BENCH_BURST_SIZES", "100,200,1000"),
  payments: num("BENCH_PAYMENTS", 20),
  /** Approvals are spaced so payments overlap a little without building a queue on a small machine. */
  paymentSpacingMs: num("BENCH_PAYMENT_SPACING_MS", 400),
  /** Passes as transfers x concurrency; the full set adds 10000x5 (about 1.5 minutes per run more). */
  pollerPasses: (process.env.BENCH_POLLER ?? "1000x5,1000x20,10000x20").split(",").map((p) => p.split("x").map(Number) as [number, number]),
  pollerDelayMs: 20,
  /** 10,000 in the issue; the default keeps the whole bench within 15 minutes on 2 cores. */
  workerTransfers: num("BENCH_WORKER_TRANSFERS", 2000),
  scaleRows: num("BENCH_SCALE_ROWS", 1_000_000),
  initiateCalls: num("BENCH_INITIATE_CALLS", 2000),
  /** Checkouts sent at once in the rush-hour section, and its runs (each creates twice as many carts). */
  rushCheckouts: num("BENCH_RUSH_CHECKOUTS", 100),
  rushRuns: num("BENCH_RUSH_RUNS", 1),
}

export const round = (n: number, d = 1) => Math.round(n * 10 ** d) / 10 ** d
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
export const log = (m: string) => process.stdout.write(`[bench] ${m}\n`)

/**
 * Waits until this process, where Medusa runs, has been nearly idle (event
 * loop busy under 5 %) for QUIET_MS, at most MAX_SETTLE_MS. Work an earlier
 * measurement left behind (the core route's events, which Medusa runs 5 s
 * late, and what they queue) must not fall on the next measurement. Returns
 * the time waited and the last busy share seen.
 */
export async function settle(): Promise<{ waited_ms: number; busy: number }> {
  const { performance } = require("node:perf_hooks") as typeof import("node:perf_hooks")
  const start = Date.now()
  let last = performance.eventLoopUtilization()
  for (;;) {
    await sleep(QUIET_MS)
    const now = performance.eventLoopUtilization()
    const busy = performance.eventLoopUtilization(now, last).utilization
    last = now
    if (busy < 0.05 || Date.now() - start >= MAX_SETTLE_MS) return { waited_ms: Date.now() - start, busy: round(busy, 3) }
  }
}
const QUIET_MS = 500
const MAX_SETTLE_MS = 60_000

const pct = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : NaN)

export function stats(values: number[]) {
  const s = [...values].sort((a, b) => a - b)
  return { n: s.length, p50: round(pct(s, 50), 2), p95: round(pct(s, 95), 2), p99: round(pct(s, 99), 2), max: round(s[s.length - 1] ?? NaN, 2) }
}

export const median = (values: number[]) => {
  const s = [...values].sort((a, b) => a - b)
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2
}

/**
 * Runs `once` CFG.runs times and folds the figures: each numeric field `f`
 * becomes the median, with `f_min` and `f_max` beside it; the last run's other
 * fields are kept.
 */
export async function medianOfRuns<T extends Record<string, unknown>>(
  once: (run: number) => Promise<T>,
  runs = CFG.runs
): Promise<T & { runs: number }> {
  const all: T[] = []
  for (let i = 0; i < runs; i++) all.push(await once(i))
  return foldRuns(all)
}

/** The figures of several runs as one: each numeric field's median, with `_min` and `_max`; the last run's other fields. */
export function foldRuns<T extends Record<string, unknown>>(all: T[]): T & { runs: number } {
  const out: Record<string, unknown> = { ...all[all.length - 1], runs: all.length }
  for (const [k, v] of Object.entries(all[0])) {
    if (typeof v !== "number") continue
    const values = all.map((r) => r[k] as number)
    out[k] = round(median(values), 3)
    out[`${k}_min`] = round(Math.min(...values), 3)
    out[`${k}_max`] = round(Math.max(...values), 3)
  }
  return out as T & { runs: number }
}

/** A full GC, also inside jest's sandbox (where global.gc is not passed through). */
export function forceGc(): boolean {
  try {
    // eslint-disable-next-line @typescript-eslint/no-var-requires
    require("node:v8").setFlagsFromString("--expose-gc")
    // eslint-disable-next-line @typescript-eslint/no-var-requires
    ;(require("node:vm").runInNewContext("gc") as () => void)()
    return true
  } catch {
    return false
  }
}

/**
 * Heap used before a piece of work and its peak during it (sampled every 20 ms), in MB,
 * and the work's own duration: the full GCs around it are not timed.
 */
export async function measureHeap<T>(
  work: () => Promise<T>
): Promise<{ result: T; ms: number; heap_before_mb: number; heap_peak_mb: number; heap_growth_mb: number; heap_retained_mb: number }> {
  forceGc()
  const before = process.memoryUsage().heapUsed
  let peak = before
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().heapUsed)), 20)
  try {
    const t0 = performance.now()
    const result = await work()
    const ms = performance.now() - t0
    peak = Math.max(peak, process.memoryUsage().heapUsed)
    const mb = (b: number) => round(b / 2 ** 20, 0)
    // What a full GC after the pass leaves: growth that is only uncollected garbage shows here as ~0.
    forceGc()
    const retained = process.memoryUsage().heapUsed - before
    return { result, ms, heap_before_mb: mb(before), heap_peak_mb: mb(peak), heap_growth_mb: mb(peak - before), heap_retained_mb: mb(retained) }
  } finally {
    clearInterval(sampler)
  }
}
