#!/usr/bin/env node
"use strict"
const fs = require("node:fs")
const path = require("node:path")

const root = path.join(__dirname, "..")
const built = path.join(root, ".medusa", "server", "src", "emulator", "cli.js")
const source = path.join(root, "src", "emulator", "cli.ts")
// Tests set ODEME_EMULATOR_FROM_SOURCE so they never run a stale (or half-rebuilt) build.
const fromSource = process.env.ODEME_EMULATOR_FROM_SOURCE === "1" && fs.existsSync(source)
if (!fromSource && fs.existsSync(built)) {
  require(built)
} else {
  // Source checkout: compile the TypeScript on the fly.
  require(path.join(root, "scripts", "register-ts.js"))
  require(source)
}
