/**
 * A store as it ran an older release of the plugin, for the upgrade test
 * (integration-tests/http/upgrade.spec.ts): the plugin's source at a commit,
 * built with `medusa plugin:build` under .tmp/upgrade/, and a private copy of
 * the fixture app whose `node_modules/medusa-payment-odeme` link is switched
 * from that build to the repository's. A copy, not the fixture app itself:
 * other test files run beside this one and load the plugin through the
 * fixture app's link.
 */
import { execFileSync } from "node:child_process"
import fs from "node:fs"
import path from "node:path"
import { Pool } from "pg"
import { medusaArgs, startMedusaProcess } from "../../scripts/lib/medusa"
import { ensurePluginBuilt, MEDUSA_CLI } from "../../scripts/lib/plugin-build"
import { freePort } from "../../scripts/lib/ports"
import { run } from "../../scripts/lib/processes"
import { databaseUrl, withAdminClient } from "./medusa-database"
import { APP_DIR, LOG_DIR, ROOT, childEnv } from "./medusa-env"
import type { SeededStore } from "./store"

const WORK = path.join(ROOT, ".tmp/upgrade")
const git = (...args: string[]) => execFileSync("git", args, { cwd: ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trim()

/**
 * The commit's full id, fetching the history when the clone is shallow; a
 * string saying why not when the commit cannot be had.
 */
export function resolveCommit(commit: string): { sha: string } | { missing: string } {
  const has = () => {
    try {
      return git("rev-parse", "--verify", "--quiet", `${commit}^{commit}`)
    } catch {
      return ""
    }
  }
  if (has()) return { sha: has() }
  try {
    if (git("rev-parse", "--is-shallow-repository") === "true") git("fetch", "--quiet", "--unshallow")
  } catch (e) {
    return { missing: `commit ${commit} is not in this clone and fetching the history failed: ${(e as Error).message.split("\n")[0]}` }
  }
  return has() ? { sha: has() } : { missing: `commit ${commit} is not in this clone's history (git rev-parse found no such commit)` }
}

/**
 * The plugin built as it was at `sha`, once per commit (kept in .tmp/upgrade
 * with a stamp; a half-made build has none and is made again).
 *
 * Two things differ from the release as a store installed it, both forced by
 * this repository's node_modules: the old code's types do not check against
 * zod 4 (`plugin:build` still emits it), and it ran on zod 3, whose parser
 * zod 4 ships as `zod/v3`; its `require("zod")` is pointed there, because zod
 * 4's `.default({})` skips the defaults inside and the old options would be
 * read with settings missing.
 */
export async function buildPluginAt(sha: string, log: (m: string) => void): Promise<string> {
  const dir = path.join(WORK, `plugin-${sha.slice(0, 10)}`)
  const stamp = path.join(dir, ".medusa/server/.upgrade-stamp")
  if (fs.existsSync(stamp)) return dir
  fs.rmSync(dir, { recursive: true, force: true })
  fs.mkdirSync(dir, { recursive: true })
  execFileSync("sh", ["-c", `git archive ${sha} | tar -x -C "${dir}"`], { cwd: ROOT, stdio: ["ignore", "ignore", "pipe"] })
  fs.symlinkSync(path.relative(dir, path.join(ROOT, "node_modules")), path.join(dir, "node_modules"), "dir")
  log(`building the plugin at ${sha.slice(0, 7)} (medusa plugin:build)`)
  const logFile = path.join(LOG_DIR, `build-${sha.slice(0, 7)}.log`)
  await run("medusa plugin:build", process.execPath, [MEDUSA_CLI, "plugin:build"], { cwd: dir, env: childEnv({}), logFile }).catch((e) => {
    if (!/Plugin build completed/.test(e.output ?? "")) throw e
  })
  const entry = path.join(dir, ".medusa/server/src/providers/odeme/index.js")
  if (!fs.existsSync(entry)) throw new Error(`the build at ${sha} made no ${entry}; see ${logFile}`)
  for (const file of jsFiles(path.join(dir, ".medusa/server/src"))) {
    const text = fs.readFileSync(file, "utf8")
    if (text.includes('require("zod")')) fs.writeFileSync(file, text.replaceAll('require("zod")', 'require("zod/v3")'))
  }
  fs.writeFileSync(stamp, new Date().toISOString() + "\n")
  return dir
}

function jsFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name)
    return e.isDirectory() ? jsFiles(p) : e.name.endsWith(".js") ? [p] : []
  })
}

export interface UpgradeApp {
  dir: string
  database: { name: string; url: string }
  seed: SeededStore
  /** Points the app's `medusa-payment-odeme` at a plugin's root (an old build, or ROOT). */
  use(pluginRoot: string): void
  /** `medusa <args>` in the app, to completion (db:migrate, exec, user). */
  cli(args: string[], name: string): Promise<string>
  start(name: string, env: Record<string, string>): Promise<import("../../scripts/lib/processes").Service & { url: string }>
  sql<T = any>(text: string, params?: unknown[]): Promise<T[]>
  close(): Promise<void>
}

/** A private copy of the fixture app on an empty database, migrated and seeded with the plugin at `pluginRoot`. */
export async function prepareUpgradeApp(pluginRoot: string, log: (m: string) => void): Promise<UpgradeApp> {
  const dir = path.join(WORK, `app-${process.pid}`)
  fs.rmSync(dir, { recursive: true, force: true })
  fs.cpSync(APP_DIR, dir, { recursive: true, filter: (src) => !/node_modules|\.medusa/.test(path.relative(APP_DIR, src)) })
  // The seed imports the store helpers by a path relative to the fixture app.
  const seed = path.join(dir, "src/scripts/seed.ts")
  fs.writeFileSync(seed, fs.readFileSync(seed, "utf8").replace("../../../../utils/store", path.join(ROOT, "integration-tests/utils/store")))
  const name = `odeme_upgrade_${process.pid}_${Date.now().toString(36)}`
  await withAdminClient((c) => c.query(`create database "${name}"`))
  const url = databaseUrl(name)
  const pool = new Pool({ connectionString: url, max: 3 })
  pool.on("error", () => {})
  const processes: Array<{ stop(ms?: number): Promise<void> }> = []
  const app: UpgradeApp = {
    dir,
    database: { name, url },
    seed: undefined as unknown as SeededStore,
    use(root) {
      const link = path.join(dir, "node_modules/medusa-payment-odeme")
      fs.mkdirSync(path.dirname(link), { recursive: true })
      fs.rmSync(link, { recursive: true, force: true })
      fs.symlinkSync(path.relative(path.dirname(link), root), link, "dir")
    },
    cli: (args, label) =>
      run(`medusa ${args[0]}`, process.execPath, medusaArgs(args), {
        cwd: dir,
        env: childEnv({ DATABASE_URL: url, REDIS_URL: undefined }),
        logFile: path.join(LOG_DIR, `upgrade-${label}-${process.pid}.log`),
      }),
    async start(label, env) {
      const port = await freePort()
      const procUrl = `http://localhost:${port}`
      const penv = childEnv({
        DATABASE_URL: url,
        PORT: String(port),
        MEDUSA_WORKER_MODE: "shared",
        ODEME_BACKEND_URL: procUrl,
        REDIS_URL: undefined,
        ...env,
      })
      const logFile = path.join(LOG_DIR, `upgrade-${label}-${process.pid}.log`)
      const proc = await startMedusaProcess({ name: label, command: "start", cwd: dir, env: penv, url: procUrl, logFile, timeoutMs: 180_000 })
      processes.push(proc)
      return Object.assign(proc, { url: procUrl })
    },
    sql: async (text, params) => (await pool.query(text, params as any[])).rows,
    async close() {
      await Promise.all(processes.map((p) => p.stop(5000)))
      await pool.end().catch(() => {})
      await withAdminClient(async (c) => {
        await c.query(`select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()`, [name])
        await c.query(`drop database if exists "${name}"`)
      }).catch(() => undefined)
      fs.rmSync(dir, { recursive: true, force: true })
    },
  }
  app.use(pluginRoot)
  log(`migrating ${name} with the plugin at ${path.relative(ROOT, pluginRoot) || "HEAD"}`)
  await app.cli(["db:migrate"], "migrate-old")
  const out = await app.cli(["exec", "./src/scripts/seed.ts"], "seed")
  const m = /ODEME_FIXTURE_SEED (\{.*\})/.exec(out)
  if (!m) throw new Error(`the seed script printed no result:\n${out.slice(-2000)}`)
  app.seed = JSON.parse(m[1]) as SeededStore
  return app
}

/** The repository's own plugin build, fresh (the one the other process tests load). */
export function buildCurrentPlugin(log: (m: string) => void) {
  return ensurePluginBuilt({ log, logFile: path.join(LOG_DIR, "build.log"), env: childEnv({}) })
}
