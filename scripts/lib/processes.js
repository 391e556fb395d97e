/**
 * Child processes of the demo and the tests (PostgreSQL aside, see ../postgres.js):
 * each runs in its own process group, so stopping it also stops what it forked
 * (`medusa develop` forks `medusa start`); its output goes to a log file and is
 * kept in memory, never to the terminal, unless the caller asks to echo it.
 *
 * Inside jest, every started process is listed in `globalThis.__odemeProcessLogs`:
 * integration-tests/environment.js prints their last lines when a test fails.
 */
const { spawn } = require("node:child_process")
const fs = require("node:fs")
const path = require("node:path")

const stripAnsi = (s) => s.replace(/\u001b\[[0-9;]*m/g, "")

/** Every child started here and still running, so an owner that stops early can stop them all. */
const active = new Set()
function track(child) {
  active.add(child)
  child.on("exit", () => active.delete(child))
}

/** Stops every child still running (a demo interrupted in the middle of a step). */
async function stopAll(graceMs = 3000) {
  await Promise.all([...active].map((c) => stopService(c, graceMs)))
}

/** Last `lines` lines of a text. */
function tailText(text, lines = 40) {
  return text.trimEnd().split("\n").slice(-lines).join("\n")
}

function tailFile(file, lines = 40) {
  try {
    return tailText(fs.readFileSync(file, "utf8"), lines)
  } catch {
    return ""
  }
}

function registerForFailureReport(name, output) {
  const registry = globalThis.__odemeProcessLogs
  if (Array.isArray(registry)) registry.push({ name, output })
}

/**
 * Runs a command to completion with its output in `logFile`; resolves with that output,
 * rejects with its last lines when the command fails.
 */
function run(name, cmd, args, { cwd, env = process.env, logFile }) {
  fs.mkdirSync(path.dirname(logFile), { recursive: true })
  const out = fs.openSync(logFile, "w")
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, env, stdio: ["ignore", out, out] })
    track(child)
    child.on("error", (e) => (fs.closeSync(out), reject(e)))
    child.on("exit", (code, signal) => {
      fs.closeSync(out)
      const text = stripAnsi(fs.readFileSync(logFile, "utf8"))
      if (code === 0) return resolve(text)
      const err = new Error(`${name} failed (${signal || `exit ${code}`}); last lines of ${logFile}:\n${tailText(text)}`)
      err.output = text
      reject(err)
    })
  })
}

/**
 * Starts a long-running process, by default in its own group (`detached: false` keeps it in
 * the caller's group, so a Ctrl-C or a runner killing its group stops it too). The returned ChildProcess has
 * `exited` (a promise of {code, signal}), `logFile`, `output()` (everything printed,
 * colours removed), `alive()`, `waitForLog(re, timeoutMs, since)` and `stop(graceMs)`.
 */
function startService(name, cmd, args, { cwd, env = process.env, logFile, echo = false, detached = true }) {
  fs.mkdirSync(path.dirname(logFile), { recursive: true })
  const file = fs.createWriteStream(logFile)
  file.write(`\n===== ${new Date().toISOString()} start ${name}\n`)
  const child = spawn(cmd, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"], detached })
  track(child)
  let text = ""
  const listeners = new Set()
  for (const stream of [child.stdout, child.stderr]) {
    stream.on("data", (chunk) => {
      const s = stripAnsi(chunk.toString("utf8"))
      text += s
      file.write(s)
      if (echo) process.stdout.write(chunk)
      for (const l of listeners) l()
    })
  }
  child.exited = new Promise((resolve) =>
    child.on("exit", (code, signal) => {
      file.end(`\n===== exit ${signal ?? code}\n`)
      for (const l of listeners) l()
      resolve({ code, signal })
    })
  )
  child.name = name
  child.logFile = logFile
  child.output = () => text
  child.alive = () => child.exitCode === null && child.signalCode === null
  child.waitForLog = (re, timeoutMs = 30_000, since = 0) => waitForLog(child, listeners, re, timeoutMs, since)
  child.stop = (graceMs) => stopService(child, graceMs)
  registerForFailureReport(name, child.output)
  return child
}

/** Resolves with the first line (from character `since` on) that matches `re`. */
function waitForLog(child, listeners, re, timeoutMs, since) {
  return new Promise((resolve, reject) => {
    const finish = (fn, v) => {
      clearTimeout(timer)
      listeners.delete(check)
      fn(v)
    }
    const check = () => {
      const line = child
        .output()
        .slice(since)
        .split("\n")
        .find((l) => re.test(l))
      if (line !== undefined) finish(resolve, line)
      else if (!child.alive()) finish(reject, new Error(`${child.name} exited before logging ${re}; last lines:\n${tailText(child.output(), 30)}`))
    }
    const timer = setTimeout(
      () => finish(reject, new Error(`${child.name} did not log ${re} in ${timeoutMs} ms; last lines:\n${tailText(child.output(), 30)}`)),
      timeoutMs
    )
    listeners.add(check)
    check()
  })
}

/** Sends `signal` to the child's whole process group (SIGKILL: a crash). */
function signalGroup(child, signal) {
  try {
    process.kill(-child.pid, signal)
  } catch {
    try {
      child.kill(signal)
    } catch {}
  }
}

/** SIGTERM to the child's group, SIGKILL after `graceMs`; resolves when it exited. */
async function stopService(child, graceMs = 10_000) {
  if (!child || child.exitCode !== null || child.signalCode !== null) return
  signalGroup(child, "SIGTERM")
  const timer = setTimeout(() => signalGroup(child, "SIGKILL"), graceMs)
  await (child.exited || new Promise((r) => child.on("exit", r)))
  clearTimeout(timer)
  // The group may outlive its leader (a forked `medusa start`).
  try {
    process.kill(-child.pid, 0)
    signalGroup(child, "SIGKILL")
  } catch {}
}

module.exports = { run, startService, stopService, stopAll, signalGroup, stripAnsi, tailText, tailFile }
