/**
 * Medusa as a process (`medusa develop` for the demo, `medusa start` for the
 * multi-process tests): started in its own group, ready when GET /health answers.
 */
const { startService } = require("./processes")
const { requestJson } = require("./http")
const { pollUntil } = require("./poll")
const { MEDUSA_CLI } = require("./plugin-build")

/** The argv of a Medusa CLI command, run with this Node. */
function medusaArgs(args) {
  return [MEDUSA_CLI, ...args]
}

/**
 * @param {{ name?: string, command: "develop"|"start", cwd: string, env: NodeJS.ProcessEnv, url: string, logFile: string, timeoutMs?: number, echo?: boolean }} opts
 */
async function startMedusaProcess({ name = "medusa", command, cwd, env, url, logFile, timeoutMs = 240_000, echo = false }) {
  const proc = startService(name, process.execPath, medusaArgs([command]), { cwd, env, logFile, echo })
  try {
    await pollUntil(async () => (await requestJson(`${url}/health`, { timeoutMs: 2000 })).status === 200, {
      what: `${name} (GET ${url}/health)`,
      timeoutMs,
      intervalMs: 300,
      proc,
    })
  } catch (e) {
    await proc.stop(2000)
    throw e
  }
  return proc
}

module.exports = { medusaArgs, startMedusaProcess }
