/**
 * The demo's settings, from its command line and environment (see scripts/demo.js
 * for what each means). Invalid values stop the demo with exit code 2.
 */
const path = require("node:path")
const { ROOT } = require("../plugin-build")

const truthy = (v) => /^(1|true|yes)$/i.test(v || "")

function fail(message) {
  console.error(`[demo] ${message}`)
  process.exit(2)
}

/** Value of `--name <v>` or `--name=<v>`. */
function option(argv, name) {
  const i = argv.indexOf(`--${name}`)
  if (i !== -1) {
    const v = argv[i + 1]
    if (!v || v.startsWith("--")) fail(`--${name} needs a value`)
    return v
  }
  const eq = argv.find((a) => a.startsWith(`--${name}=`))
  return eq ? eq.slice(name.length + 3) : undefined
}

/** A port from the environment (so a second demo can run beside the first), else the default. */
function portFromEnv(env, name, fallback) {
  const raw = env[name]
  if (raw === undefined || raw === "") return fallback
  const port = Number(raw)
  if (!Number.isInteger(port) || port < 1 || port > 65535) fail(`${name} must be a port number (1-65535), got "${raw}"`)
  return port
}

function demoConfig(argv = process.argv.slice(2), env = process.env) {
  const ci = argv.includes("--ci") || truthy(env.DEMO_CI)
  const demoDir = path.join(ROOT, "demo")
  const data = path.resolve(option(argv, "data-dir") || env.DEMO_DATA_DIR || path.join(demoDir, ".data"))
  const explicitDbName = option(argv, "db-name") || env.DEMO_DB_NAME
  // In --ci mode without a name: a database of this run only, dropped when it stops.
  const ownDb = ci && !explicitDbName
  const dbName = explicitDbName || (ownDb ? `medusa_odeme_e2e_${Date.now().toString(36)}_${process.pid}` : "medusa_odeme_demo")
  if (!/^[A-Za-z0-9_]+$/.test(dbName)) fail(`invalid database name "${dbName}" (letters, digits and _ only)`)
  const medusaPort = portFromEnv(env, "ODEME_DEMO_MEDUSA_PORT", 9000)
  const storefrontPort = portFromEnv(env, "ODEME_DEMO_STOREFRONT_PORT", 8000)
  const emulatorPort = portFromEnv(env, "ODEME_DEMO_EMULATOR_PORT", 4010)
  return {
    ci,
    check: argv.includes("--check") || truthy(env.DEMO_CHECK),
    rebuild: argv.includes("--rebuild"),
    migrate: argv.includes("--migrate"),
    verbose: argv.includes("--verbose"),
    useEmulator: !env.ODEME_BASE_URL,
    demoDir,
    storefrontDir: path.join(demoDir, "storefront"),
    data,
    logs: path.join(data, "logs"),
    seedMarker: path.join(data, "seeded.json"),
    keyFile: path.join(data, "publishable-key.txt"),
    dbName,
    ownDb,
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
