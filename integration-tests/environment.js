/**
 * Jest environment of the Medusa-backed layers: keeps a test file's console
 * output and the output of the processes it started (scripts/lib/processes.js)
 * out of the report, and prints them only for a test or hook that failed, so
 * a failure is not buried under Medusa's logs.
 */
const { TestEnvironment } = require("jest-environment-node")

const MAX_CONSOLE_LINES = 400
const PROCESS_TAIL_LINES = 60

class QuietEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context)
    // Made here, not in setup(): jest runs the setupFiles before it calls setup().
    // Filled by integration-tests/setup.js (console) and scripts/lib/processes.js (children).
    this.global.__odemeConsoleBuffer = []
    this.global.__odemeProcessLogs = []
  }

  handleTestEvent(event) {
    const failed = (event.name === "test_done" && event.test.errors.length > 0) || event.name === "hook_failure" || event.name === "test_fn_failure"
    if (event.name === "test_fn_failure") return // reported once, at test_done
    if (failed) this.report(event.test?.name ?? event.hook?.type ?? "hook")
    if (event.name === "test_done") this.global.__odemeConsoleBuffer.length = 0
  }

  report(what) {
    const lines = this.global.__odemeConsoleBuffer.splice(0)
    const parts = []
    if (lines.length)
      parts.push(
        `--- console output up to the failure (last ${Math.min(lines.length, MAX_CONSOLE_LINES)} lines) ---`,
        ...lines.slice(-MAX_CONSOLE_LINES)
      )
    for (const p of this.global.__odemeProcessLogs) {
      // Only what is new since the last report (a failed beforeAll fails every test after it).
      const all = String(p.output() || "")
      const text = all.slice(p.reported || 0).trimEnd()
      p.reported = all.length
      if (text) parts.push(`--- last lines of ${p.name} ---`, ...text.split("\n").slice(-PROCESS_TAIL_LINES))
    }
    if (parts.length) process.stderr.write(`\n=== output captured for failed "${what}" ===\n${parts.join("\n")}\n=== end of captured output ===\n`)
  }
}

module.exports = QuietEnvironment
