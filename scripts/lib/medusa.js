/**
 * Medusa as a process (`medusa develop` for the demo, `medusa start` for the
 * multi-process tests): started in its own group, ready when GET /health answers.
 */
const { startService } = require("./processes")
const { requestJson } = require("./http")
const { pollUntil } = require("./poll")
const { MEDUSA_CLI } = require("./plugin-build")

/** The argv of a Medusa CLI command, run with this Node (`cli`: another store's own CLI, e.g. scripts/compat.js). */
function medusaArgs(args, cli = MEDUSA_CLI) {
  return [cli, ...args]
}

/**
 * @param {{ name?: string, command: "develop"|"start", cwd: string, env: NodeJS.ProcessEnv, url: string, logFile: string, timeoutMs?: number, echo?: boolean, cli?: string }} opts
 */
async function startMedusaProcess({ name = "medusa", command, cwd, env, url, logFile, timeoutMs = 240_000, echo = false, cli }) {
  const proc = startService(name, process.execPath, medusaArgs([command], cli), { cwd, env, logFile, echo })
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
