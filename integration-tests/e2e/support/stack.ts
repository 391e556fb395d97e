/**
 * The whole demo stack for browser tests: `scripts/demo.js --ci --data-dir <tmp>`
 * as a child process (plugin build if src/ changed, PostgreSQL, emulator, Medusa
 * with Admin, storefront). Waits for its `[demo] READY {json}` line. A fresh data
 * directory and, through --ci, a database of its own per run: a developer's demo
 * data (demo/.data, medusa_odeme_demo) is never touched.
 *
 * DATABASE_URL / DB_* are passed through (scripts/test.js sets DB_* to its
 * embedded PostgreSQL), otherwise demo.js starts one in the data directory.
 */
import { spawn, type ChildProcess } from "node:child_process"
import fs from "node:fs"
import os from "node:os"
import path from "node:path"
import { tailText } from "../../../scripts/lib/processes"

export const ROOT = path.resolve(__dirname, "..", "..", "..")

export interface StackInfo {
  storefront: string
  backend: string
  admin: string
  emulator: string | null
  publishableKey: string
  dataDir: string
  database: string
  logs: string
}

export interface Stack extends StackInfo {
  stop(): Promise<void>
  /** The demo script's own output so far (steps, errors). */
  output(): string
}

const tail = (text: string, lines = 60) => tailText(text, lines)

function groupAlive(pid: number) {
  try {
    process.kill(-pid, 0)
    return true
  } catch {
    return false
  }
}

export interface StackOptions {
  timeoutMs?: number
  /** A data directory of the caller's (kept at stop), e.g. for a second start on the same store; by default a fresh one, removed at stop. */
  dataDir?: string
  /** More arguments for demo.js (e.g. --db-name) and settings over this process's environment (e.g. the ports). */
  args?: string[]
  env?: NodeJS.ProcessEnv
}

export async function startStack({
  timeoutMs = 6 * 60_000,
  dataDir: givenDataDir,
  args = [],
  env: givenEnv = {},
}: StackOptions = {}): Promise<Stack> {
  // E2E_STACK_FILE: the layer's one stack (support/global-stack.ts) writes its READY json there.
  // E2E_STACK='<READY json>': a stack started by hand (`node scripts/demo.js --ci --data-dir /tmp/x`).
  // A file attached to either neither starts nor stops it.
  // A stack on a data directory of the caller's is its own, never the shared one.
  const shared = givenDataDir
    ? null
    : (process.env.E2E_STACK ?? (process.env.E2E_STACK_FILE ? await readyFile(process.env.E2E_STACK_FILE, Math.max(timeoutMs, 9 * 60_000)) : null))
  if (shared) {
    const info = JSON.parse(shared) as StackInfo
    // Shown by integration-tests/environment.js when a test fails: what Medusa logged meanwhile.
    const log = path.join(info.logs, "medusa.log")
    const read = () => (fs.existsSync(log) ? fs.readFileSync(log, "utf8") : "")
    const entry = { name: "medusa.log of the shared demo stack", output: read, reported: read().length }
    ;(globalThis as any).__odemeProcessLogs?.push(entry)
    return { ...info, stop: async () => {}, output: () => "" }
  }
  const dataDir = givenDataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), "odeme-e2e-"))
  const env: NodeJS.ProcessEnv = { ...process.env, MEDUSA_DISABLE_TELEMETRY: "true", ...givenEnv }
  // Jest's settings are not the store's: demo.js sets NODE_ENV for Medusa itself.
  delete env.NODE_ENV
  delete env.JEST_WORKER_ID
  env.NODE_OPTIONS = (env.NODE_OPTIONS || "")
    .split(/\s+/)
    .filter((o) => o && o !== "--experimental-vm-modules")
    .join(" ")
  const child: ChildProcess = spawn(process.execPath, [path.join(ROOT, "scripts", "demo.js"), "--ci", "--data-dir", dataDir, ...args], {
    cwd: ROOT,
    env,
    // stdin stays a pipe: demo.js stops everything when it closes (if this process dies).
    stdio: ["pipe", "pipe", "pipe"],
    detached: true,
  })
  let out = ""
  child.stdout!.on("data", (c) => (out += c))
  child.stderr!.on("data", (c) => (out += c))
  // Shown by integration-tests/environment.js when a test fails.
  ;(globalThis as any).__odemeProcessLogs?.push({ name: "scripts/demo.js --ci", output: () => out })
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()))
  let stopped: Promise<void> | null = null

  const stop = () => {
    if (stopped) return stopped
    stopped = (async () => {
      const pid = child.pid!
      if (child.exitCode === null && child.signalCode === null) {
        // demo.js stops Medusa, the emulator, the storefront and PostgreSQL, each in its own group.
        try {
          process.kill(-pid, "SIGTERM")
        } catch {}
        const timer = setTimeout(() => {
          try {
            process.kill(-pid, "SIGKILL")
          } catch {}
        }, 60_000)
        await exited
        clearTimeout(timer)
      }
      if (groupAlive(child.pid!)) {
        try {
          process.kill(-pid, "SIGKILL")
        } catch {}
      }
      child.stdin?.destroy()
      if (givenDataDir) return
      if (!process.env.E2E_KEEP_DATA) fs.rmSync(dataDir, { recursive: true, force: true })
      else process.stdout.write(`e2e: data and logs kept in ${dataDir}\n`)
    })()
    return stopped
  }

  const info = await new Promise<StackInfo>((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(new Error(`the demo stack was not ready after ${timeoutMs / 1000} s:\n${tail(out)}`))
    }, timeoutMs)
    const onData = () => {
      const m = out.match(/^\[demo\] READY (\{.*\})$/m)
      if (m) {
        clearTimeout(timer)
        child.stdout!.off("data", onData)
        resolve(JSON.parse(m[1]) as StackInfo)
      }
    }
    child.stdout!.on("data", onData)
    child.once("exit", (code, signal) => {
      clearTimeout(timer)
      reject(new Error(`scripts/demo.js exited (${signal || `exit ${code}`}) before it was ready:\n${tail(out)}`))
    })
  }).catch(async (e) => {
    const logs = path.join(dataDir, "logs", "medusa.log")
    const medusa = fs.existsSync(logs) ? `\n--- last lines of medusa.log ---\n${tail(fs.readFileSync(logs, "utf8"), 40)}` : ""
    await stop()
    throw new Error(`${(e as Error).message}${medusa}`)
  })

  return { ...info, stop, output: () => out }
}

/** The READY json the layer's stack writes (or the error it could not start with), waited for. */
async function readyFile(file: string, timeoutMs: number): Promise<string> {
  const giveUpAt = Date.now() + timeoutMs
  while (!fs.existsSync(file)) {
    if (Date.now() > giveUpAt) throw new Error(`the shared demo stack was not ready after ${timeoutMs / 1000} s`)
    await new Promise((r) => setTimeout(r, 500))
  }
  const text = fs.readFileSync(file, "utf8")
  const error = (JSON.parse(text) as { error?: string }).error
  if (error) throw new Error(`the shared demo stack did not start: ${error}`)
  return text
}
