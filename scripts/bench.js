#!/usr/bin/env node
/**
 * `npm run bench`: benchmarks (not tests). Starts an embedded PostgreSQL
 * unless DATABASE_URL / DB_* point at one (scripts/postgres.js), runs
 * bench/odeme.bench.ts with jest (Medusa booted like the HTTP tests, the
 * emulator as its own process), then prints the table of
 * bench-results/results.json.
 *
 * Knobs (environment): BENCH_INGEST_SECONDS (8), BENCH_INGEST_CONNECTIONS
 * ("10,100"), BENCH_PAYMENTS (50), BENCH_PAYMENT_SPACING_MS (400), BENCH_POLLER_SIZES ("1000,10000"),
 * BENCH_POLLER_CONCURRENCY (20), BENCH_INITIATE_CALLS (2000), LOG_LEVEL (error).
 */
const { spawn } = require("node:child_process")
const fs = require("node:fs")
const path = require("node:path")
const { ensurePostgres } = require("./postgres")

const ROOT = path.resolve(__dirname, "..")
const RESULTS = path.join(ROOT, "bench-results", "results.json")

const jestConfig = {
  rootDir: ROOT,
  testEnvironment: "node",
  moduleFileExtensions: ["js", "ts", "json"],
  modulePathIgnorePatterns: ["dist/", "<rootDir>/.medusa/"],
  testMatch: ["<rootDir>/bench/**/*.bench.ts"],
  setupFiles: ["<rootDir>/integration-tests/setup.js"],
  transform: {
    "^.+\\.[jt]sx?$": [
      "@swc/jest",
      {
        jsc: {
          parser: { syntax: "typescript", decorators: true },
          transform: { legacyDecorator: true, decoratorMetadata: true },
        },
      },
    ],
  },
}

function printTable(r) {
  const line = (cells, widths) => cells.map((c, i) => String(c).padEnd(widths[i])).join("  ")
  const table = (title, head, rows) => {
    const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => String(row[i]).length)))
    console.log(`\n${title}`)
    console.log(line(head, widths))
    console.log(widths.map((w) => "-".repeat(w)).join("  "))
    for (const row of rows) console.log(line(row, widths))
  }
  const m = r.machine
  console.log(`\nmachine: ${m.cpus} cores (${m.cpu_model}), Node ${m.node}, ${m.platform}, ${m.date}`)
  table(
    "1. Webhook ingest (autocannon, separate process)",
    ["route", "conn", "req/s", "p50 ms", "p99 ms", "non-2xx", "rows", "req/s vs core", "p99 vs core", "drain s"],
    r.webhook_ingest.map((x) => [x.route, x.connections, Math.round(x.rps), x.p50, x.p99, x.non2xx + x.errors, x.rows_stored, x.rps_ratio_vs_core ?? "1", x.p99_ratio_vs_core ?? "1", x.backlog_drain_s])
  )
  const t = r.time_to_paid
  table(
    `2. Time to paid: webhook sent by the emulator → payment captured (one approval every ${t.plugin.spacing_ms} ms)`,
    ["path", "payments", "captured", "p50 ms", "p95 ms", "max ms"],
    [
      ["plugin POST /odeme/webhook (inbox → verify → processPaymentWorkflow)", t.plugin.payments, t.plugin.captured, t.plugin.ms.p50, t.plugin.ms.p95, t.plugin.ms.max],
      ["core POST /hooks/payment/odeme-checkout_ref (reference provider, Medusa defaults)", t.core_reference.payments, t.core_reference.captured, t.core_reference.ms.p50, t.core_reference.ms.p95, t.core_reference.ms.max],
    ]
  )
  console.log(`ratio plugin/core: p50 ${t.p50_ratio}, p95 ${t.p95_ratio}`)
  table(
    "3. Poller: one full pass, emulator answering after 20 ms",
    ["transfers", "concurrency", "pass ms", "limit ms (N×20/c)", "pass/limit", "ms/transfer", "RSS before MB", "RSS peak MB", "heap before/peak/after GC MB"],
    r.poller.map((x) => [x.transfers, x.concurrency, x.pass_ms, x.limit_ms, x.ratio_to_limit, x.per_transfer_ms, x.rss_before_mb, x.rss_peak_mb, `${x.heap_before_mb}/${x.heap_peak_mb}/${x.heap_after_gc_mb}`])
  )
  const i = r.initiate_payment
  table("4. initiatePayment (Quick Checkout, in-process)", ["calls", "p50 ms", "p99 ms", "max ms"], [[i.calls, i.ms.p50, i.ms.p99, i.ms.max]])
  console.log(`\nmeasured in ${r.total_s} s; full figures: ${path.relative(process.cwd(), RESULTS)}`)
}

async function main() {
  const log = (m) => console.log(`[bench] ${m}`)
  const started = Date.now()
  const db = await ensurePostgres({ log })
  fs.rmSync(RESULTS, { force: true })
  const args = [require.resolve("jest/bin/jest"), "--runInBand", "--forceExit", `--config=${JSON.stringify(jestConfig)}`]
  const env = {
    ...process.env,
    ...db.env,
    LOG_LEVEL: process.env.LOG_LEVEL || "error",
    NODE_OPTIONS: [process.env.NODE_OPTIONS, "--experimental-vm-modules", "--no-warnings", "--expose-gc"].filter(Boolean).join(" "),
  }
  const child = spawn(process.execPath, args, { stdio: "inherit", env, cwd: ROOT })
  const forward = (sig) => child.kill(sig)
  process.on("SIGINT", forward)
  process.on("SIGTERM", forward)
  const code = await new Promise((resolve) => child.on("exit", (c, s) => resolve(c ?? (s ? 1 : 0))))
  await db.stop()
  if (!fs.existsSync(RESULTS)) {
    console.error("\n[bench] no results were written")
    process.exit(code || 1)
  }
  printTable(JSON.parse(fs.readFileSync(RESULTS, "utf8")))
  console.log(`[bench] total ${Math.round((Date.now() - started) / 1000)} s`)
  process.exit(code)
}

main().catch((err) => {
  console.error(err)
  process.exit(1)
})
