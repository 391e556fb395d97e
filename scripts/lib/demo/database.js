/**
 * The demo store's database: PostgreSQL (embedded or given), the store's own
 * database on it, and `db:migrate` + seed + admin user, each skipped when
 * nothing changed since the last run.
 */
const fs = require("node:fs")
const path = require("node:path")
const { ensurePostgres } = require("../../postgres")
const { run, tailFile } = require("../processes")
const { medusaArgs } = require("../medusa")
const { ROOT } = require("../plugin-build")

async function withMaintenanceClient(env, fn) {
  const { Client } = require("pg")
  const { DB_HOST, DB_PORT, DB_USERNAME, DB_PASSWORD } = env
  const client = new Client({ host: DB_HOST, port: Number(DB_PORT), user: DB_USERNAME, password: DB_PASSWORD, database: "postgres" })
  await client.connect()
  try {
    return await fn(client)
  } finally {
    await client.end()
  }
}

/** PostgreSQL with the demo's database on it; `databaseUrl` and, for a database of this run, `dropDatabase`. */
async function startPostgres(cfg, log) {
  const pg = await ensurePostgres({ dataDir: path.join(cfg.data, "postgres"), log: (m) => log(`   ${m}`) })
  await withMaintenanceClient(pg.env, async (client) => {
    const { rowCount } = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [cfg.dbName])
    if (!rowCount) {
      await client.query(`CREATE DATABASE "${cfg.dbName}"`)
      log(`   created database ${cfg.dbName}`)
    }
  })
  const { DB_HOST, DB_PORT, DB_USERNAME, DB_PASSWORD } = pg.env
  const auth = `${encodeURIComponent(DB_USERNAME)}${DB_PASSWORD ? `:${encodeURIComponent(DB_PASSWORD)}` : ""}`
  pg.databaseUrl = `postgres://${auth}@${DB_HOST}:${DB_PORT}/${cfg.dbName}`
  if (cfg.ownDb && !pg.embedded) {
    // Dropped after Medusa stopped: a shared server keeps no e2e databases.
    // (An embedded server of --ci lives in the data directory, which its owner removes.)
    pg.dropDatabase = () => withMaintenanceClient(pg.env, (c) => c.query(`DROP DATABASE IF EXISTS "${cfg.dbName}" WITH (FORCE)`))
  }
  return pg
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

/** Migrates, and on the first run seeds and creates the admin user; resolves true when it seeded. */
async function migrateAndSeed(cfg, env, databaseUrl, log) {
  const cli = (name, args) => run(name, process.execPath, medusaArgs(args), { cwd: cfg.demoDir, env, logFile: path.join(cfg.logs, `${name}.log`) })
  const dbKey = databaseUrl.replace(/:[^:@/]*@/, "@")
  const migratedFile = path.join(cfg.data, "migrated.json")
  const fingerprint = migrationFingerprint(dbKey)
  let previous = null
  try {
    previous = fs.readFileSync(migratedFile, "utf8")
  } catch {}
  if (!cfg.migrate && previous === fingerprint) {
    log("   no new migrations since the last run: db:migrate skipped (--migrate forces it)")
  } else {
    await cli("migrate", ["db:migrate"])
    fs.writeFileSync(migratedFile, fingerprint)
    log("   migrations applied")
  }
  let marker = null
  try {
    marker = JSON.parse(fs.readFileSync(cfg.seedMarker, "utf8"))
  } catch {}
  if (marker && marker.database === dbKey && fs.existsSync(cfg.keyFile)) {
    log(`   already seeded on ${marker.seeded_at}: seed skipped (rm -rf demo/.data to start over)`)
    return false
  }
  await cli("seed", ["exec", "./src/scripts/seed.ts"])
  log("   seeded regions, shipping, products and the publishable key")
  try {
    await cli("user", ["user", "-e", cfg.admin.email, "-p", cfg.admin.password])
    log(`   admin user ${cfg.admin.email} created`)
  } catch (e) {
    if (!/already exists/i.test(tailFile(path.join(cfg.logs, "user.log"), 200))) throw e
    log(`   admin user ${cfg.admin.email} already exists`)
  }
  fs.writeFileSync(cfg.seedMarker, JSON.stringify({ database: dbKey, seeded_at: new Date().toISOString() }, null, 2) + "\n")
  return true
}

module.exports = { startPostgres, migrateAndSeed }
