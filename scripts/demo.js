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
 * Options: --check (run the steps, verify everything answers, stop, exit 0/1; also
 * DEMO_CHECK=1), --rebuild (always build the plugin), --migrate (always run db:migrate;
 * by default it is skipped when no migration file changed since the last run),
 * --verbose (stream Medusa's log), --data-dir <dir> (data, logs and the embedded PostgreSQL
 * there instead of demo/.data; also DEMO_DATA_DIR), --db-name <name> (also DEMO_DB_NAME).
 * Ports: ODEME_DEMO_MEDUSA_PORT (9000), ODEME_DEMO_STOREFRONT_PORT (8000), ODEME_DEMO_EMULATOR_PORT (4010).
 * --ci: for tests and scripts. Non-interactive; prints one line
 *   `[demo] READY {"storefront":…,"backend":…,"emulator":…,"admin":…,"publishableKey":…,"dataDir":…}`
 * when everything answers; stops everything when its stdin closes (the parent went away) or on
 * SIGTERM/SIGINT; exits 1 if Medusa dies. Unless --db-name is given it uses a database of its
 * own (medusa_odeme_e2e_<random>) and drops it when it stops, so a shared server
 * (DATABASE_URL / DB_*) is left as it was found.
 * Ctrl-C stops Medusa, the emulator, the storefront server and PostgreSQL.
 * Logs: demo/.data/logs/{build,migrate,seed,user,medusa,emulator}.log.
 */
const { spawn } = require("node:child_process")
const fs = require("node:fs")
const http = require("node:http")
const net = require("node:net")
const path = require("node:path")
const { ensurePostgres } = require("./postgres")

const argv = process.argv.slice(2)
/** Value of `--name <v>` or `--name=<v>`. */
function option(name) {
  const i = argv.indexOf(`--${name}`)
  if (i !== -1) {
    const v = argv[i + 1]
    if (!v || v.startsWith("--")) {
      console.error(`[demo] --${name} needs a value`)
      process.exit(2)
    }
    return v
  }
  const eq = argv.find((a) => a.startsWith(`--${name}=`))
  return eq ? eq.slice(name.length + 3) : undefined
}
const CI = argv.includes("--ci") || /^(1|true|yes)$/i.test(process.env.DEMO_CI || "")

const ROOT = path.resolve(__dirname, "..")
const DEMO = path.join(ROOT, "demo")
const DATA = path.resolve(option("data-dir") || process.env.DEMO_DATA_DIR || path.join(DEMO, ".data"))
const LOGS = path.join(DATA, "logs")
const STOREFRONT_DIR = path.join(DEMO, "storefront")
const MEDUSA_CLI = path.join(ROOT, "node_modules", "@medusajs", "cli", "cli.js")
const EXPLICIT_DB_NAME = option("db-name") || process.env.DEMO_DB_NAME
/** In --ci mode without a name: a database of this run only, dropped when it stops. */
const OWN_DB = CI && !EXPLICIT_DB_NAME
const DB_NAME = EXPLICIT_DB_NAME || (OWN_DB ? `medusa_odeme_e2e_${Date.now().toString(36)}_${process.pid}` : "medusa_odeme_demo")
if (!/^[A-Za-z0-9_]+$/.test(DB_NAME)) {
  console.error(`[demo] invalid database name "${DB_NAME}" (letters, digits and _ only)`)
  process.exit(2)
}
const SEED_MARKER = path.join(DATA, "seeded.json")
const KEY_FILE = path.join(DATA, "publishable-key.txt")

/** A port from the environment (so a second demo can run beside the first), else the default. */
function portFromEnv(name, fallback) {
  const raw = process.env[name]
  if (raw === undefined || raw === "") return fallback
  const port = Number(raw)
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    console.error(`[demo] ${name} must be a port number (1-65535), got "${raw}"`)
    process.exit(2)
  }
  return port
}
const MEDUSA_PORT = portFromEnv("ODEME_DEMO_MEDUSA_PORT", 9000)
const STOREFRONT_PORT = portFromEnv("ODEME_DEMO_STOREFRONT_PORT", 8000)
const EMULATOR_PORT = portFromEnv("ODEME_DEMO_EMULATOR_PORT", 4010)
const BACKEND_URL = `http://localhost:${MEDUSA_PORT}`
const STOREFRONT_URL = `http://localhost:${STOREFRONT_PORT}`
const EMULATOR_URL = `http://127.0.0.1:${EMULATOR_PORT}`
const ADMIN = { email: "admin@odeme.test", password: "supersecret" }
const WANTED_PROVIDERS = ["pp_odeme-checkout_odeme", "pp_odeme-transfer_odeme", "pp_system_default"]
const STEPS = 7

const CHECK = argv.includes("--check") || /^(1|true|yes)$/i.test(process.env.DEMO_CHECK || "")
const REBUILD = argv.includes("--rebuild")
const VERBOSE = argv.includes("--verbose")
const useEmulator = !process.env.ODEME_BASE_URL

const t0 = Date.now()
const timings = []
const log = (m) => console.log(`[demo] ${m}`)
const secs = (ms) => `${(ms / 1000).toFixed(1)} s`
const sleep = (ms) => new Promise((r) => setTimeout(r, ms))

async function step(n, title, fn) {
  log(`${n}/${STEPS} ${title}…`)
  const start = Date.now()
  const result = await fn()
  const ms = Date.now() - start
  timings.push({ step: `${n}/${STEPS} ${title}`, ms })
  log(`${n}/${STEPS} done (${secs(ms)})`)
  return result
}

/* ------------------------------------------------------------------ processes */

const children = new Set()

function tail(file, lines = 40) {
  try {
    return fs.readFileSync(file, "utf8").trimEnd().split("\n").slice(-lines).join("\n")
  } catch {
    return ""
  }
}

/** Runs a command to completion, output to a log file; throws with the log's tail on failure. */
function run(name, cmd, args, { cwd = ROOT, env = process.env } = {}) {
  const file = path.join(LOGS, `${name}.log`)
  const out = fs.openSync(file, "w")
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, env, stdio: ["ignore", out, out], detached: true })
    children.add(child)
    child.on("error", reject)
    child.on("exit", (code, signal) => {
      children.delete(child)
      fs.closeSync(out)
      if (code === 0) return resolve()
      reject(new Error(`${name} failed (${signal || `exit ${code}`}); last lines of ${path.relative(ROOT, file)}:\n${tail(file)}`))
    })
  })
}

/** Starts a long-running process in its own process group (so it can be stopped with all its children). */
function startService(name, cmd, args, { cwd = ROOT, env = process.env, echo = false } = {}) {
  const file = path.join(LOGS, `${name}.log`)
  const out = fs.createWriteStream(file)
  const child = spawn(cmd, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"], detached: true })
  children.add(child)
  for (const stream of [child.stdout, child.stderr]) {
    stream.on("data", (chunk) => {
      out.write(chunk)
      if (echo) process.stdout.write(chunk)
    })
  }
  child.exited = new Promise((resolve) =>
    child.on("exit", (code, signal) => {
      children.delete(child)
      out.end()
      resolve({ code, signal })
    })
  )
  child.logFile = file
  return child
}

/** SIGTERM to the child's process group, SIGKILL after `graceMs`. */
async function stopService(child, graceMs = 10_000) {
  if (!child || child.exitCode !== null || child.signalCode !== null) return
  const kill = (sig) => {
    try {
      process.kill(-child.pid, sig)
    } catch {
      try {
        child.kill(sig)
      } catch {}
    }
  }
  kill("SIGTERM")
  const timer = setTimeout(() => kill("SIGKILL"), graceMs)
  await (child.exited || new Promise((r) => child.on("exit", r)))
  clearTimeout(timer)
  // The group may still hold children of the process (medusa develop forks `medusa start`).
  try {
    process.kill(-child.pid, 0)
    kill("SIGKILL")
  } catch {}
}

function medusa(args) {
  return [MEDUSA_CLI, ...args]
}

/* ------------------------------------------------------------------ helpers */

function portInUse(port) {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: "127.0.0.1" })
    socket.setTimeout(1000)
    socket.once("connect", () => (socket.destroy(), resolve(true)))
    socket.once("timeout", () => (socket.destroy(), resolve(false)))
    socket.once("error", () => resolve(false))
  })
}

async function request(url, { method = "GET", headers = {}, body, timeoutMs = 10_000 } = {}) {
  const res = await fetch(url, {
    method,
    headers: { ...(body !== undefined ? { "content-type": "application/json" } : {}), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(timeoutMs),
  })
  const text = await res.text()
  let json
  try {
    json = JSON.parse(text)
  } catch {}
  return { status: res.status, text, json, headers: res.headers }
}

async function waitFor(what, fn, { timeoutMs, intervalMs = 500, proc } = {}) {
  const deadline = Date.now() + timeoutMs
  let last
  while (Date.now() < deadline) {
    if (proc && (proc.exitCode !== null || proc.signalCode !== null)) {
      throw new Error(`${what}: the process exited; last lines of ${path.relative(ROOT, proc.logFile)}:\n${tail(proc.logFile)}`)
    }
    try {
      if (await fn()) return
    } catch (e) {
      last = e
    }
    await sleep(intervalMs)
  }
  throw new Error(`${what}: not ready after ${secs(timeoutMs)}${last ? ` (${last.message})` : ""}${proc ? `; last lines of ${path.relative(ROOT, proc.logFile)}:\n${tail(proc.logFile)}` : ""}`)
}

/** Newest modification time under the plugin's sources (what plugin:build reads). */
function newestSourceMtime() {
  let newest = 0
  const visit = (p) => {
    let st
    try {
      st = fs.statSync(p)
    } catch {
      return
    }
    if (st.isDirectory()) {
      for (const e of fs.readdirSync(p)) visit(path.join(p, e))
    } else newest = Math.max(newest, st.mtimeMs)
  }
  for (const p of ["src", "package.json", "tsconfig.json"]) visit(path.join(ROOT, p))
  return newest
}

/* ------------------------------------------------------------------ steps */

async function buildPlugin() {
  const stamp = path.join(ROOT, ".medusa", "server", ".demo-build-stamp")
  const built = fs.existsSync(path.join(ROOT, ".medusa", "server", "src", "providers", "odeme", "index.js"))
  if (!REBUILD && built && fs.existsSync(stamp) && fs.statSync(stamp).mtimeMs >= newestSourceMtime()) {
    log("   .medusa/server is newer than src/: build skipped (--rebuild forces it)")
    return
  }
  await run("build", process.execPath, medusa(["plugin:build"]), { cwd: ROOT })
  fs.writeFileSync(stamp, new Date().toISOString() + "\n")
}

async function startPostgres() {
  const pg = await ensurePostgres({ dataDir: path.join(DATA, "postgres"), log: (m) => log(`   ${m}`) })
  const { Client } = require("pg")
  const { DB_HOST, DB_PORT, DB_USERNAME, DB_PASSWORD } = pg.env
  const client = new Client({ host: DB_HOST, port: Number(DB_PORT), user: DB_USERNAME, password: DB_PASSWORD, database: "postgres" })
  await client.connect()
  try {
    const { rowCount } = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [DB_NAME])
    if (!rowCount) {
      await client.query(`CREATE DATABASE "${DB_NAME}"`)
      log(`   created database ${DB_NAME}`)
    }
  } finally {
    await client.end()
  }
  const auth = `${encodeURIComponent(DB_USERNAME)}${DB_PASSWORD ? `:${encodeURIComponent(DB_PASSWORD)}` : ""}`
  pg.databaseUrl = `postgres://${auth}@${DB_HOST}:${DB_PORT}/${DB_NAME}`
  if (OWN_DB && !pg.embedded) {
    // Dropped after Medusa stopped (see shutdown): a shared server keeps no e2e databases.
    // (An embedded server of --ci lives in the data directory, which its owner removes.)
    pg.dropDatabase = async () => {
      const c = new Client({ host: DB_HOST, port: Number(DB_PORT), user: DB_USERNAME, password: DB_PASSWORD, database: "postgres" })
      await c.connect()
      try {
        await c.query(`DROP DATABASE IF EXISTS "${DB_NAME}" WITH (FORCE)`)
      } finally {
        await c.end()
      }
    }
  }
  return pg
}

async function startEmulator() {
  if (!useEmulator) {
    log(`   ODEME_BASE_URL is set: using ${process.env.ODEME_BASE_URL} (no emulator)`)
    for (const v of ["ODEME_API_KEY", "ODEME_API_ID"]) if (!process.env[v]) log(`   warning: ${v} is not set`)
    return null
  }
  if (await portInUse(EMULATOR_PORT)) throw new Error(`port ${EMULATOR_PORT} is in use; stop what runs there (an emulator from an earlier run?)`)
  const emu = startService("emulator", process.execPath, [
    path.join(ROOT, "bin", "odeme-emulator.js"),
    "--port",
    String(EMULATOR_PORT),
    "--webhook-url",
    `${BACKEND_URL}/odeme/webhook`,
  ])
  await waitFor("emulator", async () => (await request(`${EMULATOR_URL}/_control/health`, { timeoutMs: 1000 })).status === 200, {
    timeoutMs: 30_000,
    proc: emu,
  })
  return emu
}

async function linkPlugin() {
  const nm = path.join(DEMO, "node_modules")
  const link = path.join(nm, "medusa-payment-odeme")
  fs.mkdirSync(nm, { recursive: true })
  let ok = false
  try {
    ok = fs.realpathSync(link) === fs.realpathSync(ROOT)
  } catch {}
  if (!ok) {
    fs.rmSync(link, { recursive: true, force: true })
    fs.symlinkSync(path.relative(nm, ROOT), link, process.platform === "win32" ? "junction" : "dir")
    log(`   linked demo/node_modules/medusa-payment-odeme -> ${path.relative(nm, ROOT)}`)
  }
  // Everything the store needs must resolve from demo/ the way Node resolves it for Medusa.
  for (const spec of [
    "medusa-payment-odeme/package.json",
    "medusa-payment-odeme/providers/odeme",
    "@medusajs/medusa/package.json",
    "@medusajs/framework/utils",
    "@medusajs/cli/package.json",
  ]) {
    try {
      require.resolve(spec, { paths: [DEMO] })
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
    DEMO_DATA_DIR: DATA,
    DEMO_BACKEND_URL: BACKEND_URL,
    DEMO_STOREFRONT_URL: STOREFRONT_URL,
    PORT: String(MEDUSA_PORT),
  }
  if (useEmulator) {
    env.ODEME_BASE_URL = EMULATOR_URL
    env.ODEME_MODE = "sandbox"
  }
  for (const k of ["DB_HOST", "DB_PORT", "DB_USERNAME", "DB_PASSWORD"]) delete env[k]
  return env
}

/**
 * What decides whether `db:migrate` has anything to do: the migration files of
 * the plugin and of Medusa's packages, and the database.
 */
function migrationFingerprint(dbKey) {
  const files = []
  const visit = (dir, depth) => {
    let entries
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true })
    } catch {
      return
    }
    for (const e of entries) {
      const p = path.join(dir, e.name)
      if (e.isDirectory() && depth > 0 && e.name !== "node_modules") visit(p, depth - 1)
      else if (/[\\/]migrations$/.test(dir) && /\.js$/.test(e.name)) files.push(path.relative(ROOT, p))
    }
  }
  visit(path.join(ROOT, ".medusa", "server", "src"), 4)
  const medusaVersion = JSON.parse(fs.readFileSync(path.join(ROOT, "node_modules", "@medusajs", "medusa", "package.json"), "utf8")).version
  return JSON.stringify({ dbKey, medusaVersion, files: files.sort() })
}

async function migrateAndSeed(pg) {
  const env = storeEnv(pg)
  const dbKey = pg.databaseUrl.replace(/:[^:@/]*@/, "@")
  const migratedFile = path.join(DATA, "migrated.json")
  const fingerprint = migrationFingerprint(dbKey)
  let previous = null
  try {
    previous = fs.readFileSync(migratedFile, "utf8")
  } catch {}
  if (!argv.includes("--migrate") && previous === fingerprint) {
    log("   no new migrations since the last run: db:migrate skipped (--migrate forces it)")
  } else {
    await run("migrate", process.execPath, medusa(["db:migrate"]), { cwd: DEMO, env })
    fs.writeFileSync(migratedFile, fingerprint)
    log("   migrations applied")
  }
  let marker = null
  try {
    marker = JSON.parse(fs.readFileSync(SEED_MARKER, "utf8"))
  } catch {}
  if (marker && marker.database === dbKey && fs.existsSync(KEY_FILE)) {
    log(`   already seeded on ${marker.seeded_at}: seed skipped (rm -rf demo/.data to start over)`)
    return false
  }
  await run("seed", process.execPath, medusa(["exec", "./src/scripts/seed.ts"]), { cwd: DEMO, env })
  log("   seeded regions, shipping, products and the publishable key")
  try {
    await run("user", process.execPath, medusa(["user", "-e", ADMIN.email, "-p", ADMIN.password]), { cwd: DEMO, env })
    log(`   admin user ${ADMIN.email} created`)
  } catch (e) {
    if (!/already exists/i.test(tail(path.join(LOGS, "user.log"), 200))) throw e
    log(`   admin user ${ADMIN.email} already exists`)
  }
  fs.writeFileSync(SEED_MARKER, JSON.stringify({ database: dbKey, seeded_at: new Date().toISOString() }, null, 2) + "\n")
  return true
}

async function startMedusa(pg) {
  if (await portInUse(MEDUSA_PORT)) throw new Error(`port ${MEDUSA_PORT} is in use; stop what runs there first`)
  const proc = startService("medusa", process.execPath, medusa(["develop"]), { cwd: DEMO, env: storeEnv(pg), echo: VERBOSE })
  await waitFor("Medusa", async () => (await request(`${BACKEND_URL}/health`, { timeoutMs: 2000 })).status === 200, {
    timeoutMs: 240_000,
    intervalMs: 1000,
    proc,
  })
  return proc
}

async function adminToken() {
  const res = await request(`${BACKEND_URL}/auth/user/emailpass`, { method: "POST", body: ADMIN })
  if (res.status !== 200 || !res.json?.token) throw new Error(`admin login failed: HTTP ${res.status} ${res.text.slice(0, 200)}`)
  return res.json.token
}

/**
 * Enables every Odeme provider that is registered in the demo regions. Runs on each
 * start, so a provider added to the plugin after the first seed shows up too.
 */
async function syncRegionProviders() {
  const token = await adminToken()
  const auth = { authorization: `Bearer ${token}` }
  const providers = await request(`${BACKEND_URL}/admin/payments/payment-providers?limit=100`, { headers: auth })
  const available = (providers.json?.payment_providers || []).map((p) => p.id)
  const wanted = WANTED_PROVIDERS.filter((id) => available.includes(id))
  const missing = WANTED_PROVIDERS.filter((id) => !available.includes(id))
  const regions = await request(`${BACKEND_URL}/admin/regions?limit=50&fields=id,name,*payment_providers`, { headers: auth })
  for (const region of regions.json?.regions || []) {
    if (!["Türkiye", "Europe"].includes(region.name)) continue
    const has = (region.payment_providers || []).map((p) => p.id)
    if (wanted.every((id) => has.includes(id))) continue
    const res = await request(`${BACKEND_URL}/admin/regions/${region.id}`, {
      method: "POST",
      headers: auth,
      body: { payment_providers: [...new Set([...has, ...wanted])] },
    })
    if (res.status !== 200) throw new Error(`enabling providers in region ${region.name}: HTTP ${res.status} ${res.text.slice(0, 200)}`)
    log(`   enabled ${wanted.filter((id) => !has.includes(id)).join(", ")} in region ${region.name}`)
  }
  return { available, missing }
}

/* ------------------------------------------------------------------ storefront */

const MIME = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".json": "application/json; charset=utf-8",
}

/** Bundles @medusajs/js-sdk (ESM, with qs) for the browser once per SDK version. */
async function bundleSdk() {
  let dir = path.dirname(require.resolve("@medusajs/js-sdk", { paths: [ROOT] }))
  while (!fs.existsSync(path.join(dir, "package.json"))) dir = path.dirname(dir)
  const version = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8")).version
  const out = path.join(DATA, "storefront", `medusa-js-sdk-${version}.js`)
  if (!fs.existsSync(out)) {
    const esbuild = require(require.resolve("esbuild", { paths: [ROOT, path.join(ROOT, "node_modules", "vite")] }))
    await esbuild.build({
      stdin: { contents: 'export { default } from "@medusajs/js-sdk"\n', resolveDir: ROOT },
      bundle: true,
      format: "esm",
      platform: "browser",
      target: "es2020",
      minify: true,
      outfile: out,
      mainFields: ["browser", "module", "main"],
      conditions: ["import", "browser"],
      define: { "process.env.NODE_ENV": '"production"' },
      logLevel: "silent",
    })
    log(`   bundled @medusajs/js-sdk ${version} for the browser`)
  }
  return out
}

function startStorefront({ sdkFile, emulator }) {
  const config = () => ({
    backendUrl: BACKEND_URL,
    publishableKey: fs.readFileSync(KEY_FILE, "utf8").trim(),
    mode: useEmulator ? "sandbox" : process.env.ODEME_MODE || "sandbox",
    emulator: Boolean(emulator),
    emulatorUrl: emulator ? EMULATOR_URL : null,
  })
  const server = http.createServer(async (req, res) => {
    try {
      const url = new URL(req.url, STOREFRONT_URL)
      const send = (status, type, body, extra = {}) => {
        res.writeHead(status, { "content-type": type, "cache-control": "no-store", ...extra })
        res.end(body)
      }
      if (url.pathname === "/config.json") return send(200, MIME[".json"], JSON.stringify(config()))
      if (url.pathname === "/vendor/medusa-js-sdk.js") return send(200, MIME[".js"], fs.readFileSync(sdkFile))
      // Demo only: the emulator's control API, proxied so the page needs no CORS.
      const settle = url.pathname.match(/^\/demo\/emulator\/transfers\/([A-Za-z0-9-]+)\/settle$/)
      if (settle) {
        if (!emulator || req.method !== "POST") return send(404, MIME[".json"], JSON.stringify({ message: "Not available" }))
        let body = ""
        for await (const c of req) body += c
        const result = JSON.parse(body || "{}").result === "failed" ? "failed" : "successful"
        const r = await request(`${EMULATOR_URL}/_control/transfers/${settle[1]}/settle`, { method: "POST", body: { result } })
        return send(r.status, MIME[".json"], r.text)
      }
      // Static files; any other path without an extension is a page of the app.
      const rel = path.normalize(decodeURIComponent(url.pathname)).replace(/^([/\\])+/, "")
      let file = path.join(STOREFRONT_DIR, rel)
      if (!file.startsWith(STOREFRONT_DIR)) return send(403, "text/plain", "Forbidden")
      if (!path.extname(file) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) {
        if (path.extname(rel)) return send(404, "text/plain", "Not found")
        file = path.join(STOREFRONT_DIR, "index.html")
      }
      send(200, MIME[path.extname(file)] || "application/octet-stream", fs.readFileSync(file))
    } catch (e) {
      res.writeHead(500, { "content-type": "text/plain" })
      res.end(String(e && e.message))
    }
  })
  return new Promise((resolve, reject) => {
    server.once("error", (e) =>
      reject(e.code === "EADDRINUSE" ? new Error(`port ${STOREFRONT_PORT} is in use; stop what runs there first`) : e)
    )
    server.listen(STOREFRONT_PORT, () => resolve(server))
  })
}

/* ------------------------------------------------------------------ check mode */

async function verify({ missing }) {
  const results = []
  const check = async (name, fn) => {
    try {
      const detail = await fn()
      results.push({ name, ok: true, detail })
      log(`   ok   ${name}${detail ? `: ${detail}` : ""}`)
    } catch (e) {
      results.push({ name, ok: false, detail: e.message })
      log(`   FAIL ${name}: ${e.message}`)
    }
  }
  const key = fs.readFileSync(KEY_FILE, "utf8").trim()
  const store = { "x-publishable-api-key": key }
  await check("storefront page", async () => {
    const page = await request(`${STOREFRONT_URL}/`)
    const app = await request(`${STOREFRONT_URL}/i18n.js`)
    if (page.status !== 200) throw new Error(`HTTP ${page.status}`)
    for (const label of ["Kart veya havale (Quick Checkout)", "Havale/EFT", "Sepete ekle"]) {
      if (!page.text.includes(label)) throw new Error(`the page lacks the label "${label}"`)
    }
    for (const label of ["Card or transfer (Quick Checkout)", "Bank transfer", "Add to cart"]) {
      if (!app.text.includes(label)) throw new Error(`i18n.js lacks the label "${label}"`)
    }
    const ret = await request(`${STOREFRONT_URL}/checkout/return?status=failed`)
    const sdk = await request(`${STOREFRONT_URL}/vendor/medusa-js-sdk.js`)
    if (ret.status !== 200 || sdk.status !== 200) throw new Error(`return page ${ret.status}, sdk bundle ${sdk.status}`)
    return "HTTP 200, TR and EN labels, /checkout/return, SDK bundle"
  })
  await check("Medusa /health", async () => {
    const r = await request(`${BACKEND_URL}/health`)
    if (r.status !== 200) throw new Error(`HTTP ${r.status}`)
    return "HTTP 200"
  })
  await check("publishable key on /store/products", async () => {
    const r = await request(`${BACKEND_URL}/store/products?limit=20`, { headers: store })
    if (r.status !== 200) throw new Error(`HTTP ${r.status} ${r.text.slice(0, 200)}`)
    const titles = r.json.products.map((p) => p.title)
    if (titles.length !== 3) throw new Error(`expected 3 products, got ${titles.length}`)
    return titles.join(", ")
  })
  await check("region payment providers", async () => {
    const regions = await request(`${BACKEND_URL}/store/regions`, { headers: store })
    const out = []
    for (const region of regions.json.regions) {
      const r = await request(`${BACKEND_URL}/store/payment-providers?region_id=${region.id}`, { headers: store })
      const ids = r.json.payment_providers.map((p) => p.id)
      if (!ids.includes("pp_odeme-transfer_odeme")) throw new Error(`${region.name} lacks pp_odeme-transfer_odeme`)
      out.push(`${region.name} (${region.currency_code}): ${ids.join(", ")}`)
    }
    return out.join("; ")
  })
  await check("/store/odeme/banks", async () => {
    const r = await request(`${BACKEND_URL}/store/odeme/banks`, { headers: store })
    if (r.status !== 200) throw new Error(`HTTP ${r.status} ${r.text.slice(0, 200)}`)
    const accounts = r.json.bank_groups.flatMap((g) => g.accounts)
    if (!accounts.length) throw new Error("no bank accounts")
    return `${accounts.length} accounts (${accounts.map((a) => a.bank_name).join(", ")})`
  })
  await check("admin login", async () => {
    await adminToken()
    const admin = await request(`${BACKEND_URL}/app`)
    if (admin.status !== 200) throw new Error(`/app: HTTP ${admin.status}`)
    return `${ADMIN.email} gets a token; /app HTTP 200`
  })
  if (missing.length) log(`   note: not registered by the plugin yet: ${missing.join(", ")}`)
  return results.every((r) => r.ok)
}

/* ------------------------------------------------------------------ main */

async function main() {
  fs.mkdirSync(LOGS, { recursive: true })
  const state = { pg: null, emulator: null, medusa: null, storefront: null }
  let stopping = null
  const shutdown = (reason) => {
    if (stopping) return stopping
    stopping = (async () => {
      log(`stopping (${reason})…`)
      if (state.storefront) await new Promise((r) => state.storefront.close(r)).catch(() => {})
      if (state.storefront) state.storefront.closeAllConnections?.()
      await stopService(state.medusa)
      await stopService(state.emulator, 5000)
      for (const child of children) await stopService(child, 3000)
      if (state.pg?.dropDatabase) {
        await state.pg.dropDatabase().then(
          () => log(`   dropped database ${DB_NAME}`),
          (e) => log(`   could not drop database ${DB_NAME}: ${e.message}`)
        )
      }
      if (state.pg) await state.pg.stop().catch(() => {})
      log("stopped")
    })()
    return stopping
  }
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
  if (CI && stdinIsPipe) {
    // The parent (a test runner) owns this process through the stdin pipe: when it goes away, stop.
    process.stdin.on("data", () => {})
    process.stdin.on("end", () => shutdown("stdin closed").then(() => process.exit(0)))
    process.stdin.on("error", () => shutdown("stdin error").then(() => process.exit(0)))
  }

  try {
    await step(1, "Building the plugin", buildPlugin)
    state.pg = await step(2, "Starting PostgreSQL", startPostgres)
    state.emulator = await step(3, useEmulator ? "Starting the Odeme emulator" : "Using the real Odeme service", startEmulator)
    await step(4, "Linking the plugin into the demo store", linkPlugin)
    const seeded = await step(5, "Migrating the database (and seeding on the first run)", () => migrateAndSeed(state.pg))
    state.medusa = await step(6, "Starting Medusa with its Admin", () => startMedusa(state.pg))
    const providers = await syncRegionProviders()
    if (providers.missing.length) log(`   not registered by the plugin (yet): ${providers.missing.join(", ")}`)
    state.storefront = await step(7, "Serving the storefront", async () => {
      const sdkFile = await bundleSdk()
      return startStorefront({ sdkFile, emulator: state.emulator })
    })

    const total = Date.now() - t0
    console.log("")
    log(`ready in ${secs(total)}${seeded ? " (first run: seeded)" : ""}`)
    for (const t of timings) log(`   ${t.step.padEnd(58)} ${secs(t.ms)}`)
    console.log(`
  Storefront          ${STOREFRONT_URL}
  Medusa Admin        ${BACKEND_URL}/app   (login ${ADMIN.email} / ${ADMIN.password})
  Medusa API          ${BACKEND_URL}   (publishable key in ${path.relative(ROOT, KEY_FILE)})
  ${
    state.emulator
      ? `Odeme emulator      ${EMULATOR_URL}   (webhooks to ${BACKEND_URL}/odeme/webhook)
  Emulator control    ${EMULATOR_URL}/_control/payments, /_control/transfers, /_control/webhooks
                      settle a transfer: curl -X POST ${EMULATOR_URL}/_control/transfers/<tracking no>/settle -H 'content-type: application/json' -d '{"result":"successful"}'`
      : `Odeme service       ${process.env.ODEME_BASE_URL}   (its webhook must reach ${BACKEND_URL}/odeme/webhook)`
  }
  Logs                ${path.relative(ROOT, LOGS)}/
`)

    if (CHECK) {
      log("check mode: verifying…")
      const ok = await verify(providers)
      await shutdown("check finished")
      log(`check ${ok ? "passed" : "FAILED"}; total ${secs(Date.now() - t0)}`)
      process.exit(ok ? 0 : 1)
    }
    if (CI) {
      const info = {
        storefront: STOREFRONT_URL,
        backend: BACKEND_URL,
        admin: `${BACKEND_URL}/app`,
        emulator: state.emulator ? EMULATOR_URL : null,
        publishableKey: fs.readFileSync(KEY_FILE, "utf8").trim(),
        dataDir: DATA,
        database: DB_NAME,
        logs: LOGS,
      }
      console.log(`[demo] READY ${JSON.stringify(info)}`)
      state.medusa.exited.then(({ code, signal }) => {
        if (stopping) return
        log(`Medusa exited (${signal || `exit ${code}`}); see ${state.medusa.logFile}`)
        shutdown("Medusa exited").then(() => process.exit(1))
      })
      return
    }
    log("running; press Ctrl-C to stop everything")
    if (!VERBOSE) log(`Medusa's log: tail -f ${path.relative(process.cwd(), state.medusa.logFile)}`)
    state.medusa.exited.then(({ code, signal }) => {
      if (stopping) return
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
