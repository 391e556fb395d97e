/**
 * The demo's ports, checked before it builds or migrates anything: a taken port
 * is named with the variable that moves it, and a free port to move it to.
 */
const { portInUse } = require("../ports")

/** How far above a taken port a free one is looked for to suggest. */
const SUGGEST_WITHIN = 20

/** What the demo prints for a taken port (`instead`: a free port to suggest, if one was found). */
function portTakenMessage({ port, variable, what }, instead) {
  const move = `${variable}=${instead ?? "<another port>"} npm run demo`
  return `port ${port} (${what}) is in use: stop what runs there (a demo from an earlier run?), or move it: ${move}`
}

/** A free port above `port` that none of the demo's ports is, or undefined. */
async function freePortAbove(port, taken, inUse) {
  for (let p = port + 1; p <= Math.min(port + SUGGEST_WITHIN, 65535); p++) {
    if (!taken.includes(p) && !(await inUse(p))) return p
  }
  return undefined
}

/** One message per taken port of `cfg.ports` (none when all are free). */
async function takenDemoPorts(cfg, inUse = portInUse) {
  const messages = []
  const ours = cfg.ports.map((p) => p.port)
  for (const entry of cfg.ports) {
    if (await inUse(entry.port)) messages.push(portTakenMessage(entry, await freePortAbove(entry.port, ours, inUse)))
  }
  return messages
}

/** Throws the message for `key`'s port when it is taken (a process may have taken it since the first check). */
async function assertDemoPortFree(cfg, key) {
  const entry = cfg.ports.find((p) => p.key === key)
  if (await portInUse(entry.port)) throw new Error(portTakenMessage(entry))
}

module.exports = { portTakenMessage, takenDemoPorts, assertDemoPortFree }
