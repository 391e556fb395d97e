#!/usr/bin/env node
/**
 * `npm test`: runs every test layer with no manual setup.
 *
 *   node scripts/test.js [--typecheck] [layer ...] [-- jest args]
 *   layers: unit, integration:modules, integration:http, e2e (default: all)
 *   --typecheck: `npm run typecheck` beside the tests (`npm test`); the run fails when it fails
 *
 * Starts an embedded PostgreSQL unless DATABASE_URL / DB_* point at one, runs
 * jest once over the chosen projects, stops PostgreSQL and prints a closing
 * "N passed, N failed, N skipped" line.
 */
const { spawn } = require("node:child_process")
const fs = require("node:fs")
const os = require("node:os")
const path = require("node:path")
const { ensurePostgres } = require("./postgres")

const ALL = ["unit", "integration:modules", "integration:http", "e2e"]

const USAGE = `Usage: node scripts/test.js [--typecheck] [layer ...] [-- jest args]
  layers: ${ALL.join(", ")} (default: all)
  --typecheck  npm run typecheck beside the tests (npm test does this)
Examples (docs/testing.md says which command answers what):
  node scripts/test.js unit integration:modules          the inner loop
  node scripts/test.js integration:http -- integration-tests/http/live-mode.spec.ts -t "sandbox"`

async function main() {
  const argv = process.argv.slice(2)
  const dashdash = argv.indexOf("--")
  const ownArgs = dashdash === -1 ? argv : argv.slice(0, dashdash)
  if (ownArgs.includes("--help") || ownArgs.includes("-h")) {
    console.log(USAGE)
    return
  }
  const layerArgs = ownArgs.filter((a) => a !== "--typecheck")
  const jestArgs = dashdash === -1 ? [] : argv.slice(dashdash + 1)
  const layers = layerArgs.length ? layerArgs : ALL
  for (const l of layers) {
    if (!ALL.includes(l)) {
      console.error(`Unknown test layer "${l}". Use one of: ${ALL.join(", ")}`)
      process.exit(2)
    }
  }

  // After the arguments are checked: an unknown layer exits at once, leaving no tsc behind.
  const typecheck = ownArgs.includes("--typecheck") ? startTypecheck() : null
  const needsDb = layers.some((l) => l !== "unit")
  const log = (m) => console.log(`[test] ${m}`)
  const db = needsDb ? await ensurePostgres({ log, memory: true }) : { env: {}, stop: async () => {} }

  const resultFile = path.join(os.tmpdir(), `odeme-jest-${process.pid}.json`)
  const args = [
    require.resolve("jest/bin/jest"),
    // Two files at a time: a Medusa-backed file waits on HTTP and PostgreSQL most of the time,
    // so two of them share the cores well. ODEME_TEST_WORKERS=1 runs them one after another.
    `--maxWorkers=${Number(process.env.ODEME_TEST_WORKERS || 2)}`,
    "--forceExit",
    "--json",
    `--outputFile=${resultFile}`,
    // Test paths first: --selectProjects takes every following word as a project name.
    ...jestArgs,
    "--selectProjects",
    ...layers,
  ]
  const env = {
    ...process.env,
    ...db.env,
    // Tests picked by name: checks that count what a whole suite did (integration-tests/utils/kept-responses.ts) skip the count.
    ...(jestArgs.some((a) => /^(-t|--testNamePattern(=|$))/.test(a)) ? { ODEME_TEST_NAME_FILTER: "1" } : {}),
    // --expose-gc: memory tests compare heap after a forced collection (retained memory, not garbage).
    NODE_OPTIONS: [process.env.NODE_OPTIONS, "--experimental-vm-modules", "--no-warnings", "--expose-gc"].filter(Boolean).join(" "),
  }

  let stopping = false
  const child = spawn(process.execPath, args, { stdio: "inherit", env })
  const forward = (sig) => {
    if (stopping) return
    stopping = true
    child.kill(sig)
    typecheck?.stop(sig)
  }
  process.on("SIGINT", () => forward("SIGINT"))
  process.on("SIGTERM", () => forward("SIGTERM"))
  const jestCode = await new Promise((resolve) => child.on("exit", (c, s) => resolve(c ?? (s ? 1 : 0))))
  await db.stop()
  const types = typecheck && (await typecheck)
  if (types && types.code !== 0) console.log(`\n${types.output}`)
  const code = jestCode || (types ? types.code : 0)

  try {
    const r = JSON.parse(fs.readFileSync(resultFile, "utf8"))
    // ODEME_TEST_RESULTS=file keeps jest's JSON report (every file's and test's time) for a closer look.
    if (process.env.ODEME_TEST_RESULTS) fs.copyFileSync(resultFile, process.env.ODEME_TEST_RESULTS)
    fs.rmSync(resultFile, { force: true })
    const skipped = r.numPendingTests + (r.numTodoTests || 0)
    console.log(`\nslowest tests:\n${slowest(r.testResults, 5)}`)
    console.log(`slowest files:\n${slowestFiles(r.testResults, 8)}`)
    console.log(`layers: ${types ? `typecheck ${types.seconds} s (beside the tests), ` : ""}${layerTimes(r.testResults)}`)
    if (types) console.log(types.code === 0 ? "typecheck passed" : "typecheck FAILED (above)")
    console.log(`${r.numPassedTests} passed, ${r.numFailedTests} failed, ${skipped} skipped`)
  } catch {
    console.log("\n(no jest result file: jest did not finish)")
    if (types) console.log(types.code === 0 ? `typecheck passed (${types.seconds} s)` : "typecheck FAILED (above)")
  }
  process.exit(code)
}

/**
 * `npm run typecheck` beside jest rather than before it: the Medusa-backed files spend
 * much of their time waiting on HTTP and timers, and tsc fills those gaps at a lower
 * priority instead of holding the run for its half minute. Its output is shown when it fails.
 */
function startTypecheck() {
  const started = Date.now()
  const npm = process.platform === "win32" ? "npm.cmd" : "npm"
  const child = spawn(npm, ["run", "--silent", "typecheck"], { stdio: ["ignore", "pipe", "pipe"], shell: process.platform === "win32" })
  try {
    os.setPriority(child.pid, 10)
  } catch {
    // Not permitted here: it runs at normal priority.
  }
  let output = ""
  child.stdout.on("data", (c) => (output += c))
  child.stderr.on("data", (c) => (output += c))
  const done = new Promise((resolve) =>
    child.on("close", (c, sig) => resolve({ code: c ?? (sig ? 1 : 0), output: output.trim(), seconds: Math.round((Date.now() - started) / 1000) }))
  )
  return Object.assign(done, { stop: (sig) => child.kill(sig) })
}

/** Where a test file belongs (jest.config.js's testMatch of each project). */
function layerOf(file) {
  const rel = path.relative(path.resolve(__dirname, ".."), file).split(path.sep).join("/")
  if (rel.startsWith("integration-tests/http/")) return "integration:http"
  if (rel.startsWith("integration-tests/e2e/")) return "e2e"
  if (rel.endsWith(".integration.spec.ts") || rel.endsWith(".integration.spec.js")) return "integration:modules"
  return "unit"
}

/**
 * Each layer's time: from its first file's start to its last file's end (files run two at a
 * time, so layers overlap and their times add up to more than the run's).
 */
function layerTimes(results) {
  const spans = new Map()
  for (const t of results) {
    const layer = layerOf(t.name)
    const span = spans.get(layer) || { start: Infinity, end: 0 }
    spans.set(layer, { start: Math.min(span.start, t.startTime), end: Math.max(span.end, t.endTime) })
  }
  return ALL.filter((l) => spans.has(l))
    .map((l) => `${l} ${Math.round(Math.max(0, spans.get(l).end - spans.get(l).start) / 1000)} s`)
    .join(", ")
}

/** The n slowest tests, where a faster loop would start. */
function slowest(results, n) {
  return results
    .flatMap((t) => t.assertionResults.map((a) => ({ name: `${path.basename(t.name)} › ${a.title}`, ms: a.duration || 0 })))
    .sort((a, b) => b.ms - a.ms)
    .slice(0, n)
    .map((a) => `  ${(a.ms / 1000).toFixed(1).padStart(6)} s  ${a.name.length > 110 ? `${a.name.slice(0, 109)}…` : a.name}`)
    .join("\n")
}

/** The n slowest files: each Medusa-backed file pays its own boot, so this is where grouping pays. */
function slowestFiles(results, n) {
  const root = path.resolve(__dirname, "..")
  return results
    .map((t) => ({ name: path.relative(root, t.name), ms: Math.max(0, t.endTime - t.startTime) }))
    .sort((a, b) => b.ms - a.ms)
    .slice(0, n)
    .map((f) => `  ${(f.ms / 1000).toFixed(1).padStart(6)} s  ${f.name}`)
    .join("\n")
}

main().catch((err) => {
  console.error(err)
  process.exit(1)
})
