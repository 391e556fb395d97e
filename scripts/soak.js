#!/usr/bin/env node
/**
 * `npm run soak`: the model-based test of a payment's whole life
 * (integration-tests/http/suites/model.ts, run alone from poller-driven.spec.ts) over many
 * generated sequences.
 *
 *   npm run soak                          # 1,000 sequences, a new seed
 *   ODEME_MODEL_RUNS=200 npm run soak     # fewer
 *   ODEME_MODEL_SEED=123 ODEME_MODEL_PATH=45 npm run soak   # replay what a run printed
 *
 * Prints the seed, the count and the time, and every sequence that broke the
 * invariant (none when it passes).
 */
const { spawnSync } = require("node:child_process")
const path = require("node:path")

const runs = process.env.ODEME_MODEL_RUNS || "1000"
const seed = process.env.ODEME_MODEL_SEED || String(Date.now() % 2_147_483_647)
const started = Date.now()
console.log(`[soak] ${runs} sequences, seed ${seed}`)
// The model suite alone: its file's other suites are skipped (-t matches the suite's name).
const jestArgs = ["integration-tests/http/poller-driven.spec.ts", "-t", "the order's whole life"]
const result = spawnSync(process.execPath, [path.join(__dirname, "test.js"), "integration:http", "--", ...jestArgs], {
  stdio: "inherit",
  env: { ...process.env, ODEME_MODEL_RUNS: runs, ODEME_MODEL_SEED: seed },
})
console.log(
  `[soak] ${result.status === 0 ? "nothing found" : "FOUND a sequence that breaks the invariant (see above)"} in ${runs} sequences, seed ${seed}, ${Math.round((Date.now() - started) / 1000)} s`
)
process.exit(result.status ?? 1)
