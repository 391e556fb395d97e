#!/usr/bin/env node
/**
 * `npm run test:contract`: client scenarios against the real sandbox
 * (src/contract/README.md). Without ODEME_CONTRACT_BASE_URL,
 * ODEME_CONTRACT_API_KEY and ODEME_CONTRACT_API_ID it prints one line and
 * exits 0. It is not part of `npm test`.
 *
 * Runs the compiled .medusa/server/src/contract/run.js when present and not
 * older than the sources it comes from; otherwise the TypeScript sources.
 */
const fs = require("node:fs")
const path = require("node:path")

const root = path.join(__dirname, "..")
const built = path.join(root, ".medusa", "server", "src", "contract", "run.js")
const source = path.join(root, "src", "contract", "run.ts")

function newestSourceMtime() {
  let newest = 0
  for (const dir of ["contract", "client"]) {
    const full = path.join(root, "src", dir)
    if (!fs.existsSync(full)) continue
    for (const name of fs.readdirSync(full)) {
      if (name.endsWith(".ts")) newest = Math.max(newest, fs.statSync(path.join(full, name)).mtimeMs)
    }
  }
  return newest
}

function useBuilt() {
  if (!fs.existsSync(built)) return false
  if (!fs.existsSync(source)) return true
  return fs.statSync(built).mtimeMs >= newestSourceMtime()
}

let run
if (useBuilt()) {
  run = require(built)
} else {
  require(path.join(__dirname, "register-ts.js"))
  run = require(source)
}

run
  .main()
  .then((code) => {
    process.exitCode = code
  })
  .catch((err) => {
    console.error(`contract tests crashed: ${err && err.message ? err.message : err}`)
    process.exitCode = 1
  })
