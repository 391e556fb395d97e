/**
 * What the published package must hold and must never hold: one list for the
 * release script (scripts/pack.js, on the real tarball) and the package test
 * (integration-tests/http/package.spec.ts, on `npm pack --dry-run`).
 */

/** Files a store needs: the built server, the Admin bundle, the types, the package's own documents. */
const REQUIRED_FILES = [
  "package.json",
  "README.md",
  // README.md links to it on its first line: a Turkish-speaking merchant reading the package's page follows it.
  "README.tr.md",
  "LICENSE",
  "CHANGELOG.md",
  "bin/odeme-emulator.js",
  ".medusa/server/src/admin/index.mjs",
  ".medusa/server/src/admin/index.js",
  ".medusa/server/src/modules/odeme/index.js",
  ".medusa/server/src/modules/odeme/index.d.ts",
  ".medusa/server/src/providers/odeme/index.js",
  ".medusa/server/src/providers/odeme/index.d.ts",
  ".medusa/server/src/config.js",
  ".medusa/server/src/config.d.ts",
  ".medusa/server/src/client/index.d.ts",
  ".medusa/server/src/storefront/index.js",
  ".medusa/server/src/storefront/index.d.ts",
  ".medusa/server/src/api/odeme/webhook/route.js",
  ".medusa/server/src/jobs/odeme-poll-transfers.js",
]

/** Tests, fixtures, demo data, sources, maps and environment files never ship. */
function isUnwanted(f) {
  return (
    /(^|\/)__tests__\//.test(f) ||
    /\.(spec|test)\.[cm]?[jt]sx?$/.test(f) ||
    /\.map$/.test(f) ||
    /^(src|integration-tests|demo|examples|bench|scripts|docs|artifacts|\.ci)\//.test(f) ||
    /\/contract\//.test(f) ||
    (/\.tsx?$/.test(f) && !/\.d\.ts$/.test(f)) ||
    /(^|\/)\.env/.test(f) ||
    // Only the emulator's own catalog may be called fixtures (the emulator ships as `odeme-emulator`).
    (/fixture/i.test(f) && !f.startsWith(".medusa/server/src/emulator/fixtures."))
  )
}

/** Every problem of a file list, as sentences (empty: the package is right). */
function packageProblems(files) {
  const problems = REQUIRED_FILES.filter((f) => !files.includes(f)).map((f) => `missing ${f}`)
  problems.push(...files.filter(isUnwanted).map((f) => `must not ship ${f}`))
  // Every module that ships has its types.
  const js = files.filter((f) => f.startsWith(".medusa/server/src/") && f.endsWith(".js") && !f.startsWith(".medusa/server/src/admin/"))
  problems.push(...js.filter((f) => !files.includes(f.replace(/\.js$/, ".d.ts"))).map((f) => `no types for ${f}`))
  return problems
}

module.exports = { REQUIRED_FILES, isUnwanted, packageProblems }
