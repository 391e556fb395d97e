/**
 * Databases of the multi-process tests: one migrated and seeded template per
 * PostgreSQL server (`medusa db:migrate` + the fixture app's seed, ~35 s on 2
 * cores, made once), and a copy of it (<1 s) for each app a test prepares.
 */
import { createHash } from "node:crypto"
import fs from "node:fs"
import path from "node:path"
import { Client } from "pg"
import { medusaArgs } from "../../scripts/lib/medusa"
import { pollUntil } from "../../scripts/lib/poll"
import { run } from "../../scripts/lib/processes"
import type { SeededStore } from "./store"
import { APP_DIR, LOG_DIR, ROOT, childEnv } from "./medusa-env"

/** Server URL (no database) from DATABASE_URL or DB_* (scripts/test.js sets DB_* for its embedded PostgreSQL). */
export function postgresServerUrl(): URL {
  if (process.env.DATABASE_URL) {
    const u = new URL(process.env.DATABASE_URL)
    u.pathname = "/"
    return u
  }
  const u = new URL("postgres://localhost")
  u.hostname = process.env.DB_HOST || "localhost"
  u.port = process.env.DB_PORT || "5432"
  u.username = encodeURIComponent(process.env.DB_USERNAME || "postgres")
  u.password = encodeURIComponent(process.env.DB_PASSWORD || "")
  return u
}

export function databaseUrl(name: string): string {
  const u = postgresServerUrl()
  u.pathname = `/${name}`
  return u.toString()
}

/** Runs `fn` with a client on the maintenance database `postgres`. */
export async function withAdminClient<T>(fn: (c: Client) => Promise<T>): Promise<T> {
  const c = new Client({ connectionString: databaseUrl(process.env.DB_WAITINGROOM_DATABASE || "postgres") })
  await c.connect()
  try {
    return await fn(c)
  } finally {
    await c.end().catch(() => {})
  }
}

function runCli(args: string[], env: Record<string, string | undefined>, name: string): Promise<string> {
  // Migrations and the seed need no Redis (and would leave queued events there).
  return run(`medusa ${args[0]}`, process.execPath, medusaArgs(args), {
    cwd: APP_DIR,
    env: childEnv({ REDIS_URL: undefined, ...env }),
    logFile: path.join(LOG_DIR, `${name}-${process.pid}.log`),
  })
}

/** An admin user of a database's store, made by Medusa's own `medusa user` (a test that reads the Admin API of processes). */
export async function createAdminUser(url: string, email: string, password: string): Promise<void> {
  await runCli(["user", "-e", email, "-p", password], { DATABASE_URL: url, NODE_ENV: "development" }, "user")
}

/** What decides whether the template is still good: migrations, Medusa's version, the seed. */
function templateName(): string {
  const h = createHash("sha1")
  const migrations = path.join(ROOT, ".medusa/server/src/modules/odeme/migrations")
  for (const f of fs.existsSync(migrations) ? fs.readdirSync(migrations).sort() : []) h.update(f)
  h.update(JSON.parse(fs.readFileSync(path.join(ROOT, "node_modules/@medusajs/medusa/package.json"), "utf8")).version)
  h.update(fs.readFileSync(path.join(APP_DIR, "src/scripts/seed.ts")))
  h.update(fs.readFileSync(path.join(ROOT, "integration-tests/utils/store.ts")))
  return `odeme_proc_tpl_${h.digest("hex").slice(0, 10)}`
}

/** The template's seed result (its comment), or null while it is being made or was left half-made. */
function lookUpTemplate(name: string): Promise<{ seed: string | null } | undefined> {
  return withAdminClient(async (c) => {
    const r = await c.query(`select shobj_description(d.oid, 'pg_database') as seed from pg_database d where d.datname = $1`, [name])
    return r.rows[0] as { seed: string | null } | undefined
  })
}

/**
 * A migrated and seeded template database, made once per PostgreSQL server
 * (`medusa db:migrate` + `medusa exec src/scripts/seed.ts`); the seed result
 * is kept as the template's comment.
 *
 * Test files run two at a time, and other runs may share the server: one
 * maker at a time, under a PostgreSQL advisory lock held by a connection of
 * its own (released when that connection ends, so a maker that dies releases
 * it too). Whoever waited finds the template made.
 */
async function ensureTemplate(log: (m: string) => void): Promise<{ name: string; seed: SeededStore }> {
  const name = templateName()
  return withAdminClient(async (lock) => {
    await lock.query("select pg_advisory_lock(hashtext($1))", [name])
    try {
      const made = await lookUpTemplate(name)
      if (made?.seed) return { name, seed: JSON.parse(made.seed) as SeededStore }
      await withAdminClient(async (c) => {
        await c.query(`drop database if exists "${name}"`) // a template left half-made by an interrupted run
        await c.query(`create database "${name}"`)
      })
      const env = { DATABASE_URL: databaseUrl(name), NODE_ENV: "development" }
      log(`migrating template database ${name}`)
      await runCli(["db:migrate"], env, "migrate")
      log(`seeding template database ${name}`)
      const out = await runCli(["exec", "./src/scripts/seed.ts"], env, "seed")
      const m = /ODEME_FIXTURE_SEED (\{.*\})/.exec(out)
      if (!m) throw new Error(`the seed script printed no result:\n${out.slice(-2000)}`)
      await withAdminClient((c) => c.query(`comment on database "${name}" is '${m[1].replace(/'/g, "''")}'`))
      return { name, seed: JSON.parse(m[1]) as SeededStore }
    } finally {
      await lock.query("select pg_advisory_unlock(hashtext($1))", [name]).catch(() => undefined)
    }
  })
}

/** A fresh copy of the migrated, seeded template. */
export async function createDatabase(label: string, log: (m: string) => void = () => {}) {
  const tpl = await ensureTemplate(log)
  const name = `odeme_proc_${label.replace(/\W/g, "_")}_${process.pid}_${Date.now().toString(36)}`
  // CREATE DATABASE … TEMPLATE fails while another session reads the template (a parallel run): retry.
  const created = await pollUntil(
    () =>
      withAdminClient((c) => c.query(`create database "${name}" template "${tpl.name}"`)).then(
        () => ({ error: undefined }),
        (e: { code?: string }) => (e.code === "55006" ? undefined : { error: e })
      ),
    { what: `create database ${name} from the template`, timeoutMs: 30_000, intervalMs: 500 }
  )
  if (created.error) throw created.error
  return {
    name,
    url: databaseUrl(name),
    seed: tpl.seed,
    drop: () =>
      withAdminClient(async (c) => {
        await c.query(`select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()`, [name])
        await c.query(`drop database if exists "${name}"`)
      }).catch(() => undefined),
  }
}
