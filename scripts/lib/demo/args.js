/**
 * The demo's command line: its options, its ports and the usage text that
 * `node scripts/demo.js --help` prints (the one place they are described).
 */

/** The demo's fixed ports, each movable by its variable (so a second demo, or the dtc-starter, fits beside it). */
const DEMO_PORTS = [
  { key: "medusaPort", variable: "ODEME_DEMO_MEDUSA_PORT", fallback: 9000, what: "Medusa (API and Admin)" },
  { key: "storefrontPort", variable: "ODEME_DEMO_STOREFRONT_PORT", fallback: 8000, what: "the storefront" },
  { key: "emulatorPort", variable: "ODEME_DEMO_EMULATOR_PORT", fallback: 4010, what: "the Odeme emulator" },
]

const FLAGS = { "--ci": "ci", "--check": "check", "--rebuild": "rebuild", "--migrate": "migrate", "--verbose": "verbose" }
const VALUES = { "--data-dir": "dataDir", "--db-name": "dbName" }

/** A command line or setting the demo cannot run with: it prints the usage and exits 2, starting nothing. */
class DemoUsageError extends Error {}

/** `{ help }` or the flags and values given; throws DemoUsageError for anything it does not know. */
function parseDemoArgs(argv) {
  if (argv.includes("--help") || argv.includes("-h")) return { help: true }
  const out = { help: false, ci: false, check: false, rebuild: false, migrate: false, verbose: false, dataDir: undefined, dbName: undefined }
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]
    if (FLAGS[arg]) {
      out[FLAGS[arg]] = true
      continue
    }
    const eq = arg.startsWith("--") ? arg.indexOf("=") : -1
    const name = eq === -1 ? arg : arg.slice(0, eq)
    if (!VALUES[name]) {
      throw new DemoUsageError(arg.startsWith("-") ? `unknown option ${arg}` : `unexpected argument "${arg}"`)
    }
    const value = eq === -1 ? argv[++i] : arg.slice(eq + 1)
    if (!value || (eq === -1 && value.startsWith("-"))) throw new DemoUsageError(`${name} needs a value`)
    out[VALUES[name]] = value
  }
  return out
}

function demoUsage() {
  const ports = DEMO_PORTS.map((p) => `  ${p.variable.padEnd(28)} ${p.what} (${p.fallback})`).join("\n")
  return `Usage: npm run demo -- [options]        (or: node scripts/demo.js [options])

A local store with the plugin: PostgreSQL, the Odeme emulator, Medusa with its Admin and a
storefront. It keeps running and prints its addresses; Ctrl-C stops everything.

Options:
  --check              run every step, check that each part answers, stop; exit 0 or 1 (also DEMO_CHECK=1)
  --rebuild            build the plugin even when src/ has not changed since the last build
  --migrate            run db:migrate even when no migration changed since the last run
  --verbose            print Medusa's log here (otherwise it is in <data dir>/logs/medusa.log)
  --data-dir <dir>     data, logs and the embedded PostgreSQL in <dir> (default demo/.data; also DEMO_DATA_DIR)
  --db-name <name>     the store's database (default medusa_odeme_demo; also DEMO_DB_NAME)
  --ci                 for tests and scripts: no prompts, one "[demo] READY {json}" line when ready,
                       stops when its stdin closes; a database of its own unless --db-name is given
  -h, --help           this text

Ports (environment variables; each checked before anything starts):
${ports}
  e.g. the dtc-starter on :8000 beside the demo:
    ODEME_DEMO_STOREFRONT_PORT=8001 DEMO_STOREFRONT_ORIGINS=http://localhost:8000 npm run demo

Other settings (environment):
  DEMO_STOREFRONT_ORIGINS      other storefronts against this backend (comma-separated origins)
  DEMO_STORE_SENDS_EMAIL=1     the return page promises an order e-mail (the demo sends none)
  ODEME_BASE_URL, ODEME_API_KEY, ODEME_API_ID, ODEME_MODE
                               the real Odeme sandbox instead of the emulator (demo/README.md)
  DATABASE_URL or DB_HOST, DB_PORT, DB_USERNAME, DB_PASSWORD
                               an existing PostgreSQL instead of the embedded one

Starting over: stop the demo, delete its data directory (rm -rf demo/.data, or the --data-dir
given), and run it again: it migrates, seeds and creates the admin user anew. With DATABASE_URL
or DB_*, drop the database too (medusa_odeme_demo, or the --db-name given); the data is there.
`
}

module.exports = { DEMO_PORTS, DemoUsageError, parseDemoArgs, demoUsage }
