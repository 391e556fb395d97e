#!/usr/bin/env node
/**
 * `npm run demo`: a complete local store with the plugin, in one command.
 *
 *   1. builds the plugin (.medusa/server; skipped when nothing changed, --rebuild forces)
 *   2. starts PostgreSQL (embedded, data in demo/.data/postgres; or DATABASE_URL / DB_*)
 *   3. starts the Odeme emulator on :4010 (unless ODEME_BASE_URL points at the real sandbox)
 *   4. links demo/node_modules/medusa-payment-odeme -> the repository (no second npm install)
 *   5. migrates the demo store and, on the first run only, seeds it and creates the admin user
 *   6. starts Medusa with its Admin (`medusa develop` in demo/, :9000)
 *   7. serves the demo storefront on :8000, prints the URLs and keeps running
 *
 * Before step 1 it checks that every port it needs is free, and names the variable that
 * moves a taken one. On each start it moves the seeded products' images to the
 * storefront's current address (scripts/lib/demo/images.js).
 *
 * Options, ports and their variables, starting over: `node scripts/demo.js --help`
 * (scripts/lib/demo/args.js); an unknown option prints that usage and exits 2, starting nothing.
 * --ci: for tests and scripts. Non-interactive; prints one line
 *   `[demo] READY {"storefront":…,"backend":…,"emulator":…,"admin":…,"publishableKey":…,"dataDir":…}`
 * when everything answers; stops everything when its stdin closes (the parent went away) or on
 * SIGTERM/SIGINT; exits 1 if Medusa dies. Unless --db-name is given it uses a database of its
 * own (medusa_odeme_e2e_<random>) and drops it when it stops, so a shared server
 * (DATABASE_URL / DB_*) is left as it was found.
 * Ctrl-C stops Medusa, the emulator, the storefront server and PostgreSQL.
 * Logs: demo/.data/logs/{build,migrate,seed,user,medusa,emulator}.log.
 */
const fs = require("node:fs")
const path = require("node:path")
const { demoConfig } = require("./lib/demo/config")
const { DemoUsageError, demoUsage } = require("./lib/demo/args")
const { takenDemoPorts, assertDemoPortFree } = require("./lib/demo/ports")
const { moveImagesToStorefront } = require("./lib/demo/images")
const { startPostgres, migrateAndSeed } = require("./lib/demo/database")
const { syncRegionProviders } = require("./lib/demo/store-admin")
const { bundleSdk, startStorefront } = require("./lib/demo/storefront")
const { verify } = require("./lib/demo/check")
const { ROOT, ensurePluginBuilt, linkPlugin } = require("./lib/plugin-build")
const { startEmulator } = require("./lib/emulator")
const { startMedusaProcess } = require("./lib/medusa")
const { stopAll } = require("./lib/processes")

const cfg = configOrExit()
const STEPS = 7
const t0 = Date.now()
const timings = []
const log = (m) => console.log(`[demo] ${m}`)
const secs = (ms) => `${(ms / 1000).toFixed(1)} s`

/** The settings; for --help the usage and exit 0, for a wrong option or setting the usage and exit 2. */
function configOrExit() {
  try {
    const config = demoConfig()
    if (config.help) {
      process.stdout.write(demoUsage())
      process.exit(0)
    }
    return config
  } catch (e) {
    if (!(e instanceof DemoUsageError)) throw e
    process.stderr.write(`[demo] ${e.message}\n\n${demoUsage()}`)
    process.exit(2)
  }
}

async function step(n, title, fn) {
  log(`${n}/${STEPS} ${title}…`)
  const start = Date.now()
  const result = await fn()
  const ms = Date.now() - start
  timings.push({ step: `${n}/${STEPS} ${title}`, ms })
  log(`${n}/${STEPS} done (${secs(ms)})`)
  return result
}

async function buildPlugin() {
  const built = await ensurePluginBuilt({ rebuild: cfg.rebuild, logFile: path.join(cfg.logs, "build.log") })
  if (!built) log("   .medusa/server is newer than src/: build skipped (--rebuild forces it)")
}

async function startDemoEmulator() {
  if (!cfg.useEmulator) {
    log(`   ODEME_BASE_URL is set: using ${process.env.ODEME_BASE_URL} (no emulator)`)
    for (const v of ["ODEME_API_KEY", "ODEME_API_ID"]) if (!process.env[v]) log(`   warning: ${v} is not set`)
    return null
  }
  await assertDemoPortFree(cfg, "emulatorPort")
  return startEmulator({
    port: cfg.emulatorPort,
    args: ["--webhook-url", `${cfg.backendUrl}/odeme/webhook`],
    logFile: path.join(cfg.logs, "emulator.log"),
  })
}

function linkIntoDemo() {
  const nm = path.join(cfg.demoDir, "node_modules")
  if (linkPlugin(cfg.demoDir)) log(`   linked demo/node_modules/medusa-payment-odeme -> ${path.relative(nm, ROOT)}`)
  // Everything the store needs must resolve from demo/ the way Node resolves it for Medusa.
  for (const spec of [
    "medusa-payment-odeme/package.json",
    "medusa-payment-odeme/providers/odeme",
    "@medusajs/medusa/package.json",
    "@medusajs/framework/utils",
    "@medusajs/cli/package.json",
  ]) {
    try {
      require.resolve(spec, { paths: [cfg.demoDir] })
    } catch (e) {
      throw new Error(`"${spec}" does not resolve from demo/: ${e.message}`)
    }
  }
}

function storeEnv(pg) {
  const env = {
    ...process.env,
    DATABASE_URL: pg.databaseUrl,
    NODE_ENV: "development",
    MEDUSA_DISABLE_TELEMETRY: "true",
    DEMO_DATA_DIR: cfg.data,
    DEMO_BACKEND_URL: cfg.backendUrl,
    DEMO_STOREFRONT_URL: cfg.storefrontUrl,
    PORT: String(cfg.medusaPort),
  }
  if (cfg.useEmulator) {
    env.ODEME_BASE_URL = cfg.emulatorUrl
    env.ODEME_MODE = "sandbox"
  }
  for (const k of ["DB_HOST", "DB_PORT", "DB_USERNAME", "DB_PASSWORD"]) delete env[k]
  return env
}

async function startDemoMedusa(pg) {
  await assertDemoPortFree(cfg, "medusaPort")
  return startMedusaProcess({
    command: "develop",
    cwd: cfg.demoDir,
    env: storeEnv(pg),
    url: cfg.backendUrl,
    logFile: path.join(cfg.logs, "medusa.log"),
    echo: cfg.verbose,
  })
}

function printReady(state, seeded) {
  console.log("")
  log(`ready in ${secs(Date.now() - t0)}${seeded ? " (first run: seeded)" : ""}`)
  for (const t of timings) log(`   ${t.step.padEnd(58)} ${secs(t.ms)}`)
  const { backendUrl, emulatorUrl } = cfg
  console.log(`
  Storefront          ${cfg.storefrontUrl}
  Medusa Admin        ${backendUrl}/app   (login ${cfg.admin.email} / ${cfg.admin.password})
  Medusa API          ${backendUrl}   (publishable key in ${path.relative(ROOT, cfg.keyFile)})
  ${
    state.emulator
      ? `Odeme emulator      ${emulatorUrl}   (webhooks to ${backendUrl}/odeme/webhook)
  Emulator control    ${emulatorUrl}/_control/payments, /_control/transfers, /_control/webhooks
                      settle a transfer: curl -X POST ${emulatorUrl}/_control/transfers/<tracking no>/settle -H 'content-type: application/json' -d '{"result":"successful"}'`
      : `Odeme service       ${process.env.ODEME_BASE_URL}   (its webhook must reach ${backendUrl}/odeme/webhook)`
  }
  Logs                ${path.relative(ROOT, cfg.logs)}/
  Other storefronts   ${
    process.env.DEMO_STOREFRONT_ORIGINS
      ? `${process.env.DEMO_STOREFRONT_ORIGINS} (DEMO_STOREFRONT_ORIGINS)`
      : `none; e.g. the dtc-starter on :8000: ODEME_DEMO_STOREFRONT_PORT=8001 DEMO_STOREFRONT_ORIGINS=http://localhost:8000 npm run demo`
  }
`)
}

/** Stops everything this run started, once, in reverse order. */
function makeShutdown(state) {
  let stopping = null
  const shutdown = (reason) => {
    if (stopping) return stopping
    stopping = (async () => {
      log(`stopping (${reason})…`)
      if (state.storefront) {
        await new Promise((r) => state.storefront.close(r)).catch(() => {})
        state.storefront.closeAllConnections?.()
      }
      await state.medusa?.stop(10_000)
      await state.emulator?.stop()
      await stopAll() // a step interrupted half-way (build, migrate, seed)
      if (state.pg?.dropDatabase) {
        await state.pg.dropDatabase().then(
          () => log(`   dropped database ${cfg.dbName}`),
          (e) => log(`   could not drop database ${cfg.dbName}: ${e.message}`)
        )
      }
      if (state.pg) await state.pg.stop().catch(() => {})
      log("stopped")
    })()
    return stopping
  }
  shutdown.started = () => stopping !== null
  return shutdown
}

function stopOnSignalsAndStdin(shutdown) {
  let interrupts = 0
  for (const sig of ["SIGINT", "SIGTERM"]) {
    process.on(sig, () => {
      if (++interrupts > 1) {
        log("forced exit")
        process.exit(130)
      }
      shutdown(sig).then(() => process.exit(0))
    })
  }
  let stdinIsPipe = false
  try {
    const st = fs.fstatSync(0)
    stdinIsPipe = st.isFIFO() || st.isSocket()
  } catch {}
  if (cfg.ci && stdinIsPipe) {
    // The parent (a test runner) owns this process through the stdin pipe: when it goes away, stop.
    process.stdin.on("data", () => {})
    process.stdin.on("end", () => shutdown("stdin closed").then(() => process.exit(0)))
    process.stdin.on("error", () => shutdown("stdin error").then(() => process.exit(0)))
  }
}

async function main() {
  // Every port first: a taken one found after the build, migrations and seed costs their time.
  const taken = await takenDemoPorts(cfg)
  if (taken.length) {
    for (const m of taken) console.error(`[demo] ERROR: ${m}`)
    process.exit(1)
  }
  fs.mkdirSync(cfg.logs, { recursive: true })
  const state = { pg: null, emulator: null, medusa: null, storefront: null }
  const shutdown = makeShutdown(state)
  stopOnSignalsAndStdin(shutdown)
  try {
    await step(1, "Building the plugin", buildPlugin)
    state.pg = await step(2, "Starting PostgreSQL", () => startPostgres(cfg, log))
    state.emulator = await step(3, cfg.useEmulator ? "Starting the Odeme emulator" : "Using the real Odeme service", startDemoEmulator)
    await step(4, "Linking the plugin into the demo store", linkIntoDemo)
    const seeded = await step(5, "Migrating the database (and seeding on the first run)", () =>
      migrateAndSeed(cfg, storeEnv(state.pg), state.pg.databaseUrl, log)
    )
    state.medusa = await step(6, "Starting Medusa with its Admin", () => startDemoMedusa(state.pg))
    const providers = await syncRegionProviders(cfg, log)
    if (providers.missing.length) log(`   not registered by the plugin (yet): ${providers.missing.join(", ")}`)
    await moveImagesToStorefront(cfg, log)
    state.storefront = await step(7, "Serving the storefront", async () =>
      startStorefront(cfg, { sdkFile: await bundleSdk(cfg, log), emulator: state.emulator })
    )
    printReady(state, seeded)

    if (cfg.check) {
      log("check mode: verifying…")
      const ok = await verify(cfg, providers, log)
      await shutdown("check finished")
      log(`check ${ok ? "passed" : "FAILED"}; total ${secs(Date.now() - t0)}`)
      process.exit(ok ? 0 : 1)
    }
    if (cfg.ci) {
      const info = {
        storefront: cfg.storefrontUrl,
        backend: cfg.backendUrl,
        admin: `${cfg.backendUrl}/app`,
        emulator: state.emulator ? cfg.emulatorUrl : null,
        publishableKey: fs.readFileSync(cfg.keyFile, "utf8").trim(),
        dataDir: cfg.data,
        database: cfg.dbName,
        logs: cfg.logs,
      }
      console.log(`[demo] READY ${JSON.stringify(info)}`)
    } else {
      log("running; press Ctrl-C to stop everything")
      if (!cfg.verbose) log(`Medusa's log: tail -f ${path.relative(process.cwd(), state.medusa.logFile)}`)
    }
    state.medusa.exited.then(({ code, signal }) => {
      if (shutdown.started()) return
      log(`Medusa exited (${signal || `exit ${code}`}); see ${path.relative(ROOT, state.medusa.logFile)}`)
      shutdown("Medusa exited").then(() => process.exit(1))
    })
  } catch (e) {
    console.error(`[demo] ERROR: ${e.message}`)
    await shutdown("error")
    process.exit(1)
  }
}

main()
