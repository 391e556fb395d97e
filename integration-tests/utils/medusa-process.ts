/**
 * Medusa as separate processes: a store app (integration-tests/fixtures/app)
 * that registers the *built* plugin exactly as a store installed from npm
 * does (`plugins: [{ resolve: "medusa-payment-odeme" }]` + the provider
 * `medusa-payment-odeme/providers/odeme`), started with `medusa start` in as
 * many processes as a test needs: server, worker or shared, with Redis
 * modules when REDIS_URL is set.
 *
 *   const app = await prepareMedusaApp("faults")      // build once, fresh migrated + seeded database
 *   const server = await app.start({ mode: "server", env: { ODEME_BASE_URL: emu.url, ... } })
 *   await server.waitForLog(/something/)
 *   server.kill("SIGKILL"); await app.close()
 *
 * Costs, measured on 2 cores: `medusa plugin:build` (~40 s) only when src/ is
 * newer than .medusa/server; `db:migrate` + seed once per PostgreSQL server
 * (a template database, ~35 s), every later database is a copy of it (<1 s);
 * `medusa start` 6–13 s per process. `medusa start` runs in the app directory
 * without `medusa build`: the admin is disabled and the app has no code of its
 * own to compile. NODE_ENV is "development" (readable log lines); pass
 * `env: { NODE_ENV: "production" }` for production mode (JSON log lines, same
 * start time, also without `medusa build`).
 *
 * Logs of every process: .tmp/medusa-process/<name>.log.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process"
import { createHash } from "node:crypto"
import fs from "node:fs"
import path from "node:path"
import { Client, Pool } from "pg"
import type { SeededStore } from "./store"
import { freePort } from "./environment"

export const ROOT = path.resolve(__dirname, "../..")
export const APP_DIR = path.join(ROOT, "integration-tests/fixtures/app")
const MEDUSA_CLI = path.join(ROOT, "node_modules/@medusajs/cli/cli.js")
const LOG_DIR = path.join(ROOT, ".tmp/medusa-process")

export type WorkerMode = "server" | "worker" | "shared"

export interface MedusaProcess {
  name: string
  mode: WorkerMode
  port: number
  url: string
  pid: number
  /** Everything the process printed so far (stdout + stderr, colours removed). */
  logs(): string
  /**
   * Resolves with the first log line matching `re`, looking at what is already
   * printed too, from character `since` on (take it from `logs().length`).
   */
  waitForLog(re: RegExp, timeoutMs?: number, since?: number): Promise<string>
  /** Sends a signal to the process group (SIGKILL: a crash). */
  kill(signal?: NodeJS.Signals): void
  /** SIGTERM, SIGKILL after 5 s; resolves when it exited. */
  stop(): Promise<void>
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
  logFile: string
}

export interface StartOptions {
  mode?: WorkerMode
  port?: number
  name?: string
  /** Extra environment (ODEME_*, LOG_LEVEL, …); wins over the defaults. */
  env?: Record<string, string | undefined>
  databaseUrl: string
  /** How long to wait for GET /health. */
  timeoutMs?: number
}

const stripAnsi = (s: string) => s.replace(/\u001b\[[0-9;]*m/g, "")
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/* ------------------------------------------------------------------ build */

function newestMtime(p: string): number {
  let st: fs.Stats
  try {
    st = fs.statSync(p)
  } catch {
    return 0
  }
  if (!st.isDirectory()) return st.mtimeMs
  let newest = 0
  for (const e of fs.readdirSync(p)) {
    if (e === "__tests__" || e === "node_modules") continue
    newest = Math.max(newest, newestMtime(path.join(p, e)))
  }
  return newest
}

/** `medusa plugin:build` when .medusa/server is missing or older than src/. */
export function ensurePluginBuilt(log: (m: string) => void = () => {}): void {
  const entry = path.join(ROOT, ".medusa/server/src/providers/odeme/index.js")
  const built = fs.existsSync(entry) ? fs.statSync(entry).mtimeMs : 0
  const src = Math.max(newestMtime(path.join(ROOT, "src")), newestMtime(path.join(ROOT, "package.json")))
  if (built && built >= src) return
  log("building the plugin (medusa plugin:build)")
  const r = spawnSync(process.execPath, [MEDUSA_CLI, "plugin:build"], { cwd: ROOT, env: childEnv({}), encoding: "utf8" })
  if (r.status !== 0) throw new Error(`medusa plugin:build failed:\n${(r.stdout || "") + (r.stderr || "")}`.slice(-4000))
}

/** node_modules/medusa-payment-odeme → the repository, as scripts/demo.js does for demo/. */
export function linkPlugin(): void {
  const nm = path.join(APP_DIR, "node_modules")
  const link = path.join(nm, "medusa-payment-odeme")
  fs.mkdirSync(nm, { recursive: true })
  let ok = false
  try {
    ok = fs.realpathSync(link) === fs.realpathSync(ROOT)
  } catch {}
  if (!ok) {
    fs.rmSync(link, { recursive: true, force: true })
    fs.symlinkSync(path.relative(nm, ROOT), link, process.platform === "win32" ? "junction" : "dir")
  }
}

/* ------------------------------------------------------------------ database */

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

function runCli(args: string[], env: Record<string, string | undefined>, what: string): string {
  // Migrations and the seed need no Redis (and would leave queued events there).
  const r = spawnSync(process.execPath, [MEDUSA_CLI, ...args], {
    cwd: APP_DIR,
    env: childEnv({ REDIS_URL: undefined, ...env }),
    encoding: "utf8",
    maxBuffer: 64 << 20,
  })
  const out = stripAnsi((r.stdout || "") + (r.stderr || ""))
  if (r.status !== 0) throw new Error(`${what} failed (exit ${r.status}):\n${out.slice(-4000)}`)
  return out
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

/**
 * A migrated and seeded template database, made once per PostgreSQL server
 * (`medusa db:migrate` + `medusa exec src/scripts/seed.ts`); the seed result
 * is kept as the template's comment.
 */
async function ensureTemplate(log: (m: string) => void): Promise<{ name: string; seed: SeededStore }> {
  const name = templateName()
  const look = () =>
    withAdminClient(async (c) => {
      const r = await c.query(
        `select shobj_description(d.oid, 'pg_database') as seed,
                (select count(*) from pg_stat_activity a where a.datname = d.datname)::int as sessions
           from pg_database d where d.datname = $1`,
        [name]
      )
      return r.rows[0] as { seed: string | null; sessions: number } | undefined
    })
  // Another test run on the same server may be making it right now: wait for its seed.
  for (let deadline = Date.now() + 180_000; ; ) {
    const existing = await look()
    if (existing?.seed) return { name, seed: JSON.parse(existing.seed) }
    if (!existing || existing.sessions === 0 || Date.now() > deadline) break
    await sleep(1000)
  }
  const mine = await withAdminClient(async (c) => {
    await c.query(`drop database if exists "${name}"`) // a template left half-made by an interrupted run
    return c.query(`create database "${name}"`).then(
      () => true,
      (e: { code?: string }) => {
        if (e.code === "42P04") return false // created by another run just now
        throw e
      }
    )
  })
  if (!mine) return ensureTemplate(log)
  const env = { DATABASE_URL: databaseUrl(name), NODE_ENV: "development" }
  log(`migrating template database ${name}`)
  runCli(["db:migrate"], env, "medusa db:migrate")
  log(`seeding template database ${name}`)
  const out = runCli(["exec", "./src/scripts/seed.ts"], env, "medusa exec seed")
  const m = /ODEME_FIXTURE_SEED (\{.*\})/.exec(out)
  if (!m) throw new Error(`the seed script printed no result:\n${out.slice(-2000)}`)
  await withAdminClient((c) => c.query(`comment on database "${name}" is '${m[1].replace(/'/g, "''")}'`))
  return { name, seed: JSON.parse(m[1]) }
}

/** A fresh copy of the migrated, seeded template. */
export async function createDatabase(label: string, log: (m: string) => void = () => {}) {
  const tpl = await ensureTemplate(log)
  const name = `odeme_proc_${label.replace(/\W/g, "_")}_${process.pid}_${Date.now().toString(36)}`
  // CREATE DATABASE … TEMPLATE fails while another session reads the template (a parallel run): retry.
  for (let attempt = 1; ; attempt++) {
    try {
      await withAdminClient((c) => c.query(`create database "${name}" template "${tpl.name}"`))
      break
    } catch (e) {
      if ((e as { code?: string }).code !== "55006" || attempt >= 20) throw e
      await sleep(500)
    }
  }
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

/* ------------------------------------------------------------------ processes */

/** The environment of Medusa child processes: jest's VM flags and test-only settings removed. */
function childEnv(extra: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env }
  for (const k of ["NODE_OPTIONS", "JEST_WORKER_ID", "DB_TEMP_NAME", "DATABASE_URL", "PORT", "MEDUSA_WORKER_MODE"]) delete env[k]
  for (const k of Object.keys(env)) if (k.startsWith("ODEME_")) delete env[k]
  Object.assign(env, { NODE_ENV: "development", MEDUSA_DISABLE_TELEMETRY: "true", FORCE_COLOR: "0" })
  for (const [k, v] of Object.entries(extra)) {
    if (v === undefined) delete env[k]
    else env[k] = v
  }
  return env
}

export async function startMedusa(opts: StartOptions): Promise<MedusaProcess> {
  const mode = opts.mode ?? "shared"
  const port = opts.port ?? (await freePort())
  const name = opts.name ?? `${mode}-${port}`
  const url = `http://localhost:${port}`
  fs.mkdirSync(LOG_DIR, { recursive: true })
  const logFile = path.join(LOG_DIR, `${name}.log`)
  const file = fs.createWriteStream(logFile)
  file.write(`\n===== ${new Date().toISOString()} start ${name} (${mode}) on ${port}\n`)
  const child: ChildProcess = spawn(process.execPath, [MEDUSA_CLI, "start"], {
    cwd: APP_DIR,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: childEnv({
      DATABASE_URL: opts.databaseUrl,
      PORT: String(port),
      MEDUSA_WORKER_MODE: mode,
      ODEME_BACKEND_URL: url,
      ...opts.env,
    }),
  })
  let text = ""
  const waiters = new Set<() => void>()
  for (const s of [child.stdout!, child.stderr!]) {
    s.on("data", (d: Buffer) => {
      const chunk = stripAnsi(d.toString("utf8"))
      text += chunk
      file.write(chunk)
      for (const w of waiters) w()
    })
  }
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on("exit", (code, signal) => {
      file.end(`\n===== exit ${signal ?? code}\n`)
      for (const w of waiters) w()
      resolve({ code, signal })
    })
  )
  const alive = () => child.exitCode === null && child.signalCode === null
  const kill = (signal: NodeJS.Signals = "SIGTERM") => {
    if (!alive()) return
    try {
      process.kill(-child.pid!, signal)
    } catch {
      child.kill(signal)
    }
  }
  const waitForLog = (re: RegExp, timeoutMs = 30_000, since = 0) =>
    new Promise<string>((resolve, reject) => {
      const check = () => {
        const line = text
          .slice(since)
          .split("\n")
          .find((l) => re.test(l))
        if (line !== undefined) {
          done()
          resolve(line)
        } else if (!alive()) {
          done()
          reject(new Error(`${name} exited before logging ${re}; last lines:\n${text.split("\n").slice(-30).join("\n")}`))
        }
      }
      const timer = setTimeout(() => {
        done()
        reject(new Error(`${name} did not log ${re} in ${timeoutMs} ms; last lines:\n${text.split("\n").slice(-30).join("\n")}`))
      }, timeoutMs)
      const done = () => {
        clearTimeout(timer)
        waiters.delete(check)
      }
      waiters.add(check)
      check()
    })
  const proc: MedusaProcess = {
    name,
    mode,
    port,
    url,
    pid: child.pid!,
    logs: () => text,
    waitForLog,
    kill,
    exited,
    logFile,
    stop: async () => {
      if (!alive()) return
      kill("SIGTERM")
      const t = setTimeout(() => kill("SIGKILL"), 5000)
      await exited
      clearTimeout(t)
    },
  }

  const deadline = Date.now() + (opts.timeoutMs ?? 90_000)
  for (;;) {
    if (!alive()) throw new Error(`${name} exited while starting; last lines (${logFile}):\n${text.split("\n").slice(-40).join("\n")}`)
    try {
      const r = await fetch(`${url}/health`, { signal: AbortSignal.timeout(2000) })
      if (r.status === 200) break
    } catch {}
    if (Date.now() > deadline) {
      kill("SIGKILL")
      throw new Error(`${name} did not answer /health in time; last lines (${logFile}):\n${text.split("\n").slice(-40).join("\n")}`)
    }
    await sleep(300)
  }
  return proc
}

/* ------------------------------------------------------------------ one app = one database + its processes */

export interface MedusaApp {
  database: { name: string; url: string }
  seed: SeededStore
  /** A pg client on the app's database (for assertions and time travel). */
  sql<T = any>(text: string, params?: unknown[]): Promise<T[]>
  /** Environment common to every process of this app (Redis prefix, emulator, …); `start` adds to it. */
  env: Record<string, string | undefined>
  start(opts?: Omit<StartOptions, "databaseUrl">): Promise<MedusaProcess>
  processes: MedusaProcess[]
  close(): Promise<void>
}

/**
 * Builds the plugin if needed, links it into the fixture app, creates a fresh
 * seeded database and returns a handle that starts processes on it. With
 * REDIS_URL set every process gets the Redis event bus, workflow engine,
 * locking and caching modules, under a key prefix of its own.
 */
export async function prepareMedusaApp(label: string, opts: { env?: Record<string, string | undefined>; log?: (m: string) => void } = {}): Promise<MedusaApp> {
  const log = opts.log ?? ((m: string) => process.stdout.write(`[medusa-process] ${m}\n`))
  ensurePluginBuilt(log)
  linkPlugin()
  const db = await createDatabase(label, log)
  // A pool, not one client: a test that cuts the database's connections gets fresh ones afterwards.
  const pool = new Pool({ connectionString: db.url, max: 3 })
  pool.on("error", () => {})
  const processes: MedusaProcess[] = []
  const app: MedusaApp = {
    database: { name: db.name, url: db.url },
    seed: db.seed,
    sql: async (text, params) => (await pool.query(text, params as any[])).rows,
    env: {
      ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL, ODEME_TEST_REDIS_PREFIX: `odeme-t-${db.name}` } : {}),
      ...(opts.env ?? {}),
    },
    processes,
    start: async (o = {}) => {
      const p = await startMedusa({ ...o, databaseUrl: db.url, env: { ...app.env, ...(o.env ?? {}) } })
      processes.push(p)
      return p
    },
    close: async () => {
      await Promise.all(processes.map((p) => p.stop()))
      await pool.end().catch(() => {})
      await db.drop()
      if (process.env.REDIS_URL) await dropRedisKeys(`*odeme-t-${db.name}*`).catch(() => undefined)
    },
  }
  return app
}

/** Removes the keys of one test run from Redis (bull queues, locks, cache) with SCAN + DEL over RESP. */
async function dropRedisKeys(pattern: string): Promise<void> {
  const Redis = require("ioredis")
  const redis = new Redis(process.env.REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 })
  try {
    await redis.connect()
    let cursor = "0"
    do {
      const [next, keys] = await redis.scan(cursor, "MATCH", pattern, "COUNT", 500)
      cursor = next
      if (keys.length) await redis.del(...keys)
    } while (cursor !== "0")
  } finally {
    redis.disconnect()
  }
}

/* ------------------------------------------------------------------ HTTP and state helpers */

/**
 * A small axios-like client over fetch (the shape integration-tests/utils/store.ts
 * expects): throws on non-2xx unless `validateStatus` says otherwise.
 */
export function httpApi(baseUrl: string) {
  const call = async (method: string, p: string, body?: unknown, cfg: { headers?: Record<string, string>; validateStatus?: (s: number) => boolean } = {}) => {
    const res = await fetch(baseUrl + p, {
      method,
      redirect: "manual",
      headers: { ...(body !== undefined ? { "content-type": "application/json" } : {}), ...(cfg.headers ?? {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    const text = await res.text()
    let data: any = text
    try {
      data = text ? JSON.parse(text) : undefined
    } catch {}
    const ok = cfg.validateStatus ? cfg.validateStatus(res.status) : res.status >= 200 && res.status < 300
    if (!ok) throw Object.assign(new Error(`${method} ${p} → ${res.status}: ${text.slice(0, 300)}`), { response: { status: res.status, data } })
    return { status: res.status, data, headers: res.headers }
  }
  return {
    get: (p: string, cfg?: any) => call("GET", p, undefined, cfg),
    post: (p: string, body?: unknown, cfg?: any) => call("POST", p, body ?? {}, cfg),
  }
}

/** Orders and captures of a cart, straight from PostgreSQL. */
export async function cartOutcome(app: Pick<MedusaApp, "sql">, cartId: string) {
  const orders = await app.sql<{ order_id: string }>(`select order_id from order_cart where cart_id = $1 and deleted_at is null`, [cartId])
  const payments = await app.sql<{ id: string; captured_at: Date | null }>(
    `select p.id, p.captured_at from payment p
       join cart_payment_collection cpc on cpc.payment_collection_id = p.payment_collection_id and cpc.deleted_at is null
      where cpc.cart_id = $1 and p.deleted_at is null`,
    [cartId]
  )
  const captures = await app.sql<{ id: string }>(
    `select c.id from capture c join payment p on p.id = c.payment_id
       join cart_payment_collection cpc on cpc.payment_collection_id = p.payment_collection_id and cpc.deleted_at is null
      where cpc.cart_id = $1 and c.deleted_at is null`,
    [cartId]
  )
  return { orders: orders.length, orderIds: orders.map((o) => o.order_id), payments: payments.length, captures: captures.length }
}
