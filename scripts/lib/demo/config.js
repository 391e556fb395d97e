/**
 * The demo's settings, from its command line and environment (scripts/lib/demo/args.js
 * describes each). An invalid value throws DemoUsageError: the demo exits 2, starting nothing.
 */
const path = require("node:path")
const { ROOT } = require("../plugin-build")
const { DEMO_PORTS, DemoUsageError, parseDemoArgs } = require("./args")

const truthy = (v) => /^(1|true|yes)$/i.test(v || "")

/** A port from the environment (so a second demo can run beside the first), else the default. */
function portFromEnv(env, { variable, fallback }) {
  const raw = env[variable]
  if (raw === undefined || raw === "") return fallback
  const port = Number(raw)
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new DemoUsageError(`${variable} must be a port number (1-65535), got "${raw}"`)
  return port
}

/** The ports the demo listens on (without the emulator, not its port); two of them cannot be one. */
function demoPorts(env, useEmulator) {
  const ports = DEMO_PORTS.filter((p) => useEmulator || p.key !== "emulatorPort").map((p) => ({ ...p, port: portFromEnv(env, p) }))
  for (const [i, p] of ports.entries()) {
    const other = ports.slice(0, i).find((o) => o.port === p.port)
    if (other) throw new DemoUsageError(`${other.variable} and ${p.variable} are both ${p.port}: ${other.what} and ${p.what} need a port each`)
  }
  return ports
}

/** The settings, or `{ help: true }` when the usage is asked for. */
function demoConfig(argv = process.argv.slice(2), env = process.env) {
  const args = parseDemoArgs(argv)
  if (args.help) return { help: true }
  const ci = args.ci || truthy(env.DEMO_CI)
  const demoDir = path.join(ROOT, "demo")
  const data = path.resolve(args.dataDir || env.DEMO_DATA_DIR || path.join(demoDir, ".data"))
  const explicitDbName = args.dbName || env.DEMO_DB_NAME
  // In --ci mode without a name: a database of this run only, dropped when it stops.
  const ownDb = ci && !explicitDbName
  const dbName = explicitDbName || (ownDb ? `medusa_odeme_e2e_${Date.now().toString(36)}_${process.pid}` : "medusa_odeme_demo")
  if (!/^[A-Za-z0-9_]+$/.test(dbName)) throw new DemoUsageError(`invalid database name "${dbName}" (letters, digits and _ only)`)
  const useEmulator = !env.ODEME_BASE_URL
  const ports = demoPorts(env, useEmulator)
  const { medusaPort, storefrontPort, emulatorPort } = Object.fromEntries(DEMO_PORTS.map((p) => [p.key, portFromEnv(env, p)]))
  return {
    help: false,
    ci,
    check: args.check || truthy(env.DEMO_CHECK),
    rebuild: args.rebuild,
    migrate: args.migrate,
    verbose: args.verbose,
    useEmulator,
    demoDir,
    storefrontDir: path.join(demoDir, "storefront"),
    data,
    logs: path.join(data, "logs"),
    seedMarker: path.join(data, "seeded.json"),
    keyFile: path.join(data, "publishable-key.txt"),
    dbName,
    ownDb,
    ports,
    medusaPort,
    storefrontPort,
    emulatorPort,
    backendUrl: `http://localhost:${medusaPort}`,
    storefrontUrl: `http://localhost:${storefrontPort}`,
    emulatorUrl: `http://127.0.0.1:${emulatorPort}`,
    admin: { email: "admin@odeme.test", password: "supersecret" },
    storeSendsEmail: truthy(env.DEMO_STORE_SENDS_EMAIL),
    wantedProviders: ["pp_odeme-checkout_odeme", "pp_odeme-transfer_odeme", "pp_system_default"],
  }
}

module.exports = { demoConfig }
