/**
 * The built plugin (.medusa/server) and its link into a store app (demo/,
 * integration-tests/fixtures/app), shared by the demo, the e2e stack, the
 * multi-process tests and the bench so they agree on when a build is stale.
 *
 * Freshness rule (the only one): a build is fresh when its stamp file, written
 * after `medusa plugin:build` succeeded, is newer than every file plugin:build
 * reads (src/ without tests, package.json, tsconfig.json). A build interrupted
 * half-way has no stamp, so it is never taken for fresh.
 */
const fs = require("node:fs")
const path = require("node:path")
const { run } = require("./processes")

const ROOT = path.resolve(__dirname, "..", "..")
const MEDUSA_CLI = path.join(ROOT, "node_modules", "@medusajs", "cli", "cli.js")
const STAMP = path.join(ROOT, ".medusa", "server", ".build-stamp")
const ENTRY = path.join(ROOT, ".medusa", "server", "src", "providers", "odeme", "index.js")
// Tests are compiled too but never loaded from the build: editing one must not cost a 40 s rebuild.
const SKIP = new Set(["__tests__", "node_modules"])

function newestMtime(p) {
  let st
  try {
    st = fs.statSync(p)
  } catch {
    return 0
  }
  if (!st.isDirectory()) return st.mtimeMs
  let newest = 0
  for (const e of fs.readdirSync(p)) if (!SKIP.has(e)) newest = Math.max(newest, newestMtime(path.join(p, e)))
  return newest
}

function pluginBuildIsFresh() {
  if (!fs.existsSync(ENTRY) || !fs.existsSync(STAMP)) return false
  const sources = Math.max(...["src", "package.json", "tsconfig.json"].map((p) => newestMtime(path.join(ROOT, p))))
  return fs.statSync(STAMP).mtimeMs >= sources
}

/**
 * `medusa plugin:build` unless the build is fresh (or `rebuild`). Resolves true when it built.
 * @param {{ rebuild?: boolean, logFile: string, env?: NodeJS.ProcessEnv, log?: (m: string) => void }} opts
 */
async function ensurePluginBuilt({ rebuild = false, logFile, env = process.env, log = () => {} }) {
  if (!rebuild && pluginBuildIsFresh()) return false
  // The test files run two at a time and the e2e stack builds in the background: one build at a
  // time, and whoever waited for another's build finds it fresh.
  const release = await buildLock(log)
  try {
    if (!rebuild && pluginBuildIsFresh()) return false
    log("building the plugin (medusa plugin:build)")
    await run("medusa plugin:build", process.execPath, [MEDUSA_CLI, "plugin:build"], { cwd: ROOT, env, logFile })
    fs.writeFileSync(STAMP, new Date().toISOString() + "\n")
    return true
  } finally {
    release()
  }
}

const LOCK = path.join(ROOT, ".medusa", "build.lock")
/** A build that held the lock this long has died with it. */
const STALE_LOCK_MS = 10 * 60_000

/** Takes the build lock (a directory: made atomically by one process), waiting while another holds it. */
async function buildLock(log) {
  fs.mkdirSync(path.dirname(LOCK), { recursive: true })
  for (let told = false; ;) {
    try {
      fs.mkdirSync(LOCK)
      return () => fs.rmSync(LOCK, { recursive: true, force: true })
    } catch (err) {
      if (err.code !== "EEXIST") throw err
    }
    let age = 0
    try {
      age = Date.now() - fs.statSync(LOCK).mtimeMs
    } catch {
      continue
    }
    if (age > STALE_LOCK_MS) {
      fs.rmSync(LOCK, { recursive: true, force: true })
      continue
    }
    if (!told) log("waiting for another process's plugin build")
    told = true
    await new Promise((r) => setTimeout(r, 500))
  }
}

/**
 * `<appDir>/node_modules/medusa-payment-odeme` → the repository, so the app loads the
 * plugin the way a store installed from npm does, with no second npm install.
 * Returns true when it (re)made the link.
 */
function linkPlugin(appDir) {
  const nm = path.join(appDir, "node_modules")
  const link = path.join(nm, "medusa-payment-odeme")
  fs.mkdirSync(nm, { recursive: true })
  try {
    if (fs.realpathSync(link) === fs.realpathSync(ROOT)) return false
  } catch {}
  fs.rmSync(link, { recursive: true, force: true })
  fs.symlinkSync(path.relative(nm, ROOT), link, process.platform === "win32" ? "junction" : "dir")
  return true
}

module.exports = { ROOT, MEDUSA_CLI, ensurePluginBuilt, pluginBuildIsFresh, linkPlugin }
