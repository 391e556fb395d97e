// First, before anything loads Medusa's logger: it reads LOG_LEVEL once.
const { format } = require("node:util")

// Only errors reach the report.
process.env.LOG_LEVEL = process.env.ODEME_TEST_LOG_LEVEL || "error"
process.env.MEDUSA_DISABLE_TELEMETRY = "true"

// Console output of the test file (Medusa's knex and telemetry notices, helpers' progress) is
// kept, not printed: integration-tests/environment.js prints it when a test fails.
// ODEME_TEST_VERBOSE=1 prints it as it comes.
const buffer = globalThis.__odemeConsoleBuffer
if (Array.isArray(buffer) && !/^(1|true)$/i.test(process.env.ODEME_TEST_VERBOSE || "")) {
  const keep = (line) => {
    buffer.push(line)
    if (buffer.length > 2000) buffer.splice(0, buffer.length - 2000)
  }
  for (const level of ["log", "info", "warn", "error", "debug"]) console[level] = (...args) => keep(`[${level}] ${format(...args)}`)
  // Winston (Medusa's logger) writes to console._stdout / _stderr when they exist.
  for (const stream of ["_stdout", "_stderr"]) {
    Object.defineProperty(console, stream, {
      configurable: true,
      writable: true,
      value: { write: (chunk) => (keep(`[logger] ${String(chunk).trimEnd()}`), true) },
    })
  }
}

// Medusa's data-model decorators register entities globally; clear them between test files.
const { MetadataStorage } = require("@medusajs/framework/mikro-orm/core")

MetadataStorage.clear()
