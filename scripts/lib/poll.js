/**
 * Poll-until: the one way the demo and the tests wait for a condition instead of
 * sleeping a fixed time. Deadlines are generous (a loaded 2-core machine is slow);
 * a met condition returns at the next interval, so a generous deadline costs nothing.
 */

/**
 * Calls `fn` until it returns a truthy value and returns that value. Errors thrown by
 * `fn` count as "not yet" and the last one is quoted when the deadline passes. With
 * `proc` (a child process with `logFile`/`output()`), a process that exits ends the wait.
 * @template T
 * @param {() => Promise<T|undefined|null|false>|T|undefined|null|false} fn
 * @param {{ what?: string, timeoutMs?: number, intervalMs?: number, proc?: any }} [opts]
 * @returns {Promise<T>}
 */
async function pollUntil(fn, { what = "condition", timeoutMs = 30_000, intervalMs = 200, proc } = {}) {
  const deadline = Date.now() + timeoutMs
  let last
  for (;;) {
    if (proc && (proc.exitCode !== null || proc.signalCode !== null)) {
      throw new Error(`${what}: the process exited${describeOutput(proc)}`)
    }
    try {
      const v = await fn()
      if (v) return v
    } catch (e) {
      last = e
    }
    if (Date.now() > deadline) {
      throw new Error(`${what}: not met in ${timeoutMs} ms${last ? ` (${last.message ?? String(last)})` : ""}${proc ? describeOutput(proc) : ""}`)
    }
    await new Promise((r) => setTimeout(r, intervalMs))
  }
}

function describeOutput(proc) {
  const text = typeof proc.output === "function" ? proc.output() : ""
  return text ? `; last lines${proc.logFile ? ` (${proc.logFile})` : ""}:\n${text.trimEnd().split("\n").slice(-40).join("\n")}` : ""
}

module.exports = { pollUntil }
