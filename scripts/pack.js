#!/usr/bin/env node
/**
 * `npm run pack:check`: the tarball a store installs today (the package is not on
 * npm yet) and the one a release publishes. Builds the plugin when the build is
 * stale, packs it, and checks what the tarball holds (scripts/lib/package-contents.js):
 * exit 1 when a required file is missing or a test, source or map would ship.
 *
 *   node scripts/pack.js [--out <dir>]     # default: the repository root
 *
 * Prints the tarball's path last, so `npm install "$(node scripts/pack.js | tail -1)"` works.
 */
const fs = require("node:fs")
const path = require("node:path")
const { execFileSync } = require("node:child_process")
const { ROOT, ensurePluginBuilt } = require("./lib/plugin-build")
const { packageProblems } = require("./lib/package-contents")

/**
 * Builds if needed, packs into `outDir`, checks the file list. Resolves with the tarball's
 * absolute path; rejects with every problem found.
 * @param {{ outDir?: string, log?: (m: string) => void }} [opts]
 */
async function packPlugin({ outDir = ROOT, log = () => {} } = {}) {
  const logFile = path.join(ROOT, ".medusa", "pack-build.log")
  fs.mkdirSync(path.dirname(logFile), { recursive: true })
  if (await ensurePluginBuilt({ logFile, log })) log(`built the plugin (log: ${path.relative(ROOT, logFile)})`)
  fs.mkdirSync(outDir, { recursive: true })
  // --ignore-scripts: prepublishOnly builds again on `npm publish`, not here.
  const out = execFileSync("npm", ["pack", "--json", "--ignore-scripts", "--pack-destination", outDir], {
    cwd: ROOT,
    env: { ...process.env, MEDUSA_DISABLE_TELEMETRY: "true" },
    stdio: ["ignore", "pipe", "pipe"],
  })
  const [info] = JSON.parse(out.toString())
  const tarball = path.join(outDir, info.filename)
  const files = info.files.map((f) => f.path).sort()
  const problems = packageProblems(files)
  if (problems.length) throw new Error(`the tarball is not right:\n  ${problems.join("\n  ")}`)
  log(
    `${info.name}@${info.version}: ${files.length} files, ${(info.size / 1024).toFixed(0)} kB packed, ${(info.unpackedSize / 1024).toFixed(0)} kB unpacked`
  )
  return tarball
}

module.exports = { packPlugin }

if (require.main === module) {
  const i = process.argv.indexOf("--out")
  const outDir = i > 0 ? path.resolve(process.argv[i + 1]) : ROOT
  packPlugin({ outDir, log: (m) => console.log(`[pack] ${m}`) }).then(
    (tarball) => {
      console.log("[pack] contents checked: built server, Admin bundle, types, README, LICENSE, CHANGELOG; no tests, sources or maps")
      console.log(tarball)
    },
    (e) => {
      console.error(`[pack] ERROR: ${e.message}`)
      process.exit(1)
    }
  )
}
