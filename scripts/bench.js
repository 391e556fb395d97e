#!/usr/bin/env node
/**
 * `npm run bench`: benchmarks (not tests), about 10–15 minutes on 2 cores.
 * Starts an embedded PostgreSQL unless DATABASE_URL / DB_* point at one
 * (scripts/postgres.js), runs bench/odeme.bench.ts with jest (Medusa booted
 * like the HTTP tests, the emulator as its own process; with REDIS_URL also
 * Medusa as a server and two workers), then prints the tables and goals and
 * writes the charts and generated docs (scripts/bench-report.js).
 *
 * Knobs (environment), defaults that fit 15 minutes on 2 cores: BENCH_RUNS (3),
 * BENCH_INGEST_SECONDS (4), BENCH_INGEST_CONNECTIONS ("10,100"),
 * BENCH_BURST_SIZES ("100,200,1000"), BENCH_PAYMENTS (20), BENCH_PAYMENT_SPACING_MS (400),
 * BENCH_POLLER ("1000x5,1000x20,10000x20"; the full set adds 10000x5),
 * BENCH_WORKER_TRANSFERS (2000; the 10000), BENCH_SCALE_ROWS (1000000), BENCH_INITIATE_CALLS (2000),
 * BENCH_RUSH_CHECKOUTS (100), BENCH_RUSH_RUNS (1),
 * BENCH_ONLY (sections: paid,rush,initiate,ingest,burst,poller,workers,scale),
 * BENCH_INGEST_ROUTES (plugin,plugin_duplicates,insert_limit,core), REDIS_URL, LOG_LEVEL (error),
 * BENCH_NODE_ARGS (for the bench's own process, e.g. "--cpu-prof --cpu-prof-dir=prof").
 */
const { spawn } = require("node:child_process")
const fs = require("node:fs")
const path = require("node:path")
const { ensurePostgres } = require("./postgres")
const { main: report } = require("./bench-report")

const ROOT = path.resolve(__dirname, "..")
const RESULTS = path.join(ROOT, "bench-results", "results.json")

const jestConfig = {
  rootDir: ROOT,
  testEnvironment: "node",
  moduleFileExtensions: ["js", "ts", "json"],
  modulePathIgnorePatterns: ["dist/", "<rootDir>/.medusa/", "<rootDir>/.tmp/"],
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

async function main() {
  const log = (m) => console.log(`[bench] ${m}`)
  const started = Date.now()
  if (!process.env.REDIS_URL) log("REDIS_URL is not set: the several-workers part is skipped (set REDIS_URL=redis://127.0.0.1:6379 to run it)")
  const db = await ensurePostgres({ log })
  fs.rmSync(RESULTS, { force: true })
  const args = [
    ...(process.env.BENCH_NODE_ARGS ?? "").split(" ").filter(Boolean),
    require.resolve("jest/bin/jest"),
    "--runInBand",
    "--forceExit",
    `--config=${JSON.stringify(jestConfig)}`,
  ]
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
  report()
  console.log(`[bench] total ${Math.round((Date.now() - started) / 1000)} s`)
  process.exit(code)
}

main().catch((err) => {
  console.error(err)
  process.exit(1)
})
