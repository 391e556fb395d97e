#!/usr/bin/env node
"use strict"
const fs = require("node:fs")
const path = require("node:path")

const built = path.join(__dirname, "..", ".medusa", "server", "src", "emulator", "cli.js")
if (fs.existsSync(built)) {
  require(built)
} else {
  // Source checkout: compile the TypeScript on the fly.
  require(path.join(__dirname, "..", "scripts", "register-ts.js"))
  require(path.join(__dirname, "..", "src", "emulator", "cli.ts"))
}
