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
 * newer than its last build (scripts/lib/plugin-build.js); `db:migrate` + seed once per PostgreSQL server
 * (a template database, ~35 s), every later database is a copy of it (<1 s);
 * `medusa start` 6–13 s per process. `medusa start` runs in the app directory
 * without `medusa build`: the admin is disabled and the app has no code of its
 * own to compile. NODE_ENV is "development" (readable log lines); pass
 * `env: { NODE_ENV: "production" }` for production mode (JSON log lines, same
 * start time, also without `medusa build`).
 *
 * Logs of every process: .tmp/medusa-process/<name>.log.
 */
import path from "node:path"
import { Pool } from "pg"
import { cartOutcomeFromSql } from "../../scripts/lib/cart-outcome"
import { requestJson } from "../../scripts/lib/http"
import { startMedusaProcess } from "../../scripts/lib/medusa"
import { ensurePluginBuilt, linkPlugin } from "../../scripts/lib/plugin-build"
import { freePort } from "../../scripts/lib/ports"
import { signalGroup, type Service } from "../../scripts/lib/processes"
import { createAdminUser, createDatabase } from "./medusa-database"
import { APP_DIR, LOG_DIR, ROOT, childEnv } from "./medusa-env"
import type { SeededStore } from "./store"

export { ROOT, APP_DIR }
export { createDatabase, databaseUrl, postgresServerUrl, withAdminClient } from "./medusa-database"

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

/** `medusa start` of the fixture app on its own port, ready when /health answers. */
export async function startMedusa(opts: StartOptions): Promise<MedusaProcess> {
  const mode = opts.mode ?? "shared"
  const port = opts.port ?? (await freePort())
  const name = opts.name ?? `${mode}-${port}`
  const url = `http://localhost:${port}`
  const env = childEnv({ DATABASE_URL: opts.databaseUrl, PORT: String(port), MEDUSA_WORKER_MODE: mode, ODEME_BACKEND_URL: url, ...opts.env })
  const logFile = path.join(LOG_DIR, `${name}.log`)
  // 2 cores shared with jest and the emulator: a boot takes 6–13 s, several times that under load.
  const child: Service = await startMedusaProcess({ name, command: "start", cwd: APP_DIR, env, url, logFile, timeoutMs: opts.timeoutMs ?? 180_000 })
  return {
    name,
    mode,
    port,
    url,
    pid: child.pid!,
    logs: child.output,
    waitForLog: child.waitForLog,
    kill: (signal = "SIGTERM") => {
      if (child.alive()) signalGroup(child, signal)
    },
    exited: child.exited,
    logFile,
    stop: () => child.stop(5000),
  }
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
export async function prepareMedusaApp(
  label: string,
  opts: { env?: Record<string, string | undefined>; log?: (m: string) => void } = {}
): Promise<MedusaApp> {
  const log = opts.log ?? ((m: string) => console.log(`[medusa-process] ${m}`))
  await ensurePluginBuilt({ log, logFile: path.join(LOG_DIR, "build.log"), env: childEnv({}) })
  linkPlugin(APP_DIR)
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

type CallConfig = { headers?: Record<string, string>; validateStatus?: (s: number) => boolean }

/**
 * A small axios-like client (the shape integration-tests/utils/store.ts
 * expects): throws on non-2xx unless `validateStatus` says otherwise.
 */
export function httpApi(baseUrl: string) {
  const call = async (method: string, p: string, body?: unknown, cfg: CallConfig = {}) => {
    const res = await requestJson(baseUrl + p, { method, body, headers: cfg.headers, redirect: "manual", timeoutMs: 60_000 })
    const data = res.json ?? (res.text || undefined)
    const ok = cfg.validateStatus ? cfg.validateStatus(res.status) : res.ok
    if (!ok) throw Object.assign(new Error(`${method} ${p} → ${res.status}: ${res.text.slice(0, 300)}`), { response: { status: res.status, data } })
    return { status: res.status, data, headers: res.headers }
  }
  return {
    get: (p: string, cfg?: any) => call("GET", p, undefined, cfg),
    post: (p: string, body?: unknown, cfg?: any) => call("POST", p, body ?? {}, cfg),
  }
}

/** Orders, payments and captures of a cart, straight from PostgreSQL. */
export function cartOutcome(app: Pick<MedusaApp, "sql">, cartId: string) {
  return cartOutcomeFromSql(app.sql, cartId)
}

/** Headers of an admin of the app, logged in on `baseUrl` (the user made once, with Medusa's CLI). */
export async function adminHeaders(app: Pick<MedusaApp, "database">, baseUrl: string): Promise<Record<string, string>> {
  const email = "admin@odeme.test"
  const password = "s3cret-Passw0rd!"
  await createAdminUser(app.database.url, email, password)
  const login = await requestJson(`${baseUrl}/auth/user/emailpass`, { method: "POST", body: { email, password }, timeoutMs: 30_000 })
  const token = (login.json as { token?: string } | undefined)?.token
  if (!token) throw new Error(`admin login: HTTP ${login.status} ${login.text.slice(0, 200)}`)
  return { authorization: `Bearer ${token}` }
}
