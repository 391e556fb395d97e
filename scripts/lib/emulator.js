/**
 * The Odeme emulator as its own process (bin/odeme-emulator.js), exactly as
 * merchants and the demo run it. Port 0 lets the OS pick a free port; the URL
 * is read from the emulator's "listening on" line either way.
 */
const path = require("node:path")
const { startService } = require("./processes")
const { requestJson } = require("./http")
const { ROOT } = require("./plugin-build")

/**
 * @param {{ port?: number, args?: string[], env?: NodeJS.ProcessEnv, logFile: string, timeoutMs?: number, detached?: boolean }} opts
 */
async function startEmulator({ port = 0, args = [], env = process.env, logFile, timeoutMs = 60_000, detached = true }) {
  const child = startService("emulator", process.execPath, [path.join(ROOT, "bin", "odeme-emulator.js"), "--port", String(port), ...args], {
    cwd: ROOT,
    env,
    logFile,
    detached,
  })
  let url
  try {
    url = /listening on (\S+)/.exec(await child.waitForLog(/listening on \S+/, timeoutMs))[1]
  } catch (e) {
    await child.stop(1000)
    throw e
  }
  /** The control API (`/_control/...`); a status outside 2xx is an error. */
  const control = async (method, p, body) => {
    const res = await requestJson(url + p, { method, body })
    if (!res.ok) throw new Error(`emulator control ${method} ${p} → ${res.status}: ${res.text}`)
    return res.json
  }
  return { url, child, control, stop: () => child.stop(3000) }
}

module.exports = { startEmulator }
