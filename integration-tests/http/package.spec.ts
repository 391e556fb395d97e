/**
 * What `npm publish` would ship: builds the plugin in a scratch copy of the
 * package (so a running demo's .medusa/server is never touched), then reads
 * `npm pack --dry-run --json` there. A store needs the built server, the
 * Admin bundle and the types; never tests, fixtures, demo data or sources.
 */
import { execFileSync } from "node:child_process"
import fs from "node:fs"
import os from "node:os"
import path from "node:path"

const ROOT = path.resolve(__dirname, "..", "..")
const PACKAGE_FILES = ["package.json", "tsconfig.json", "README.md", "LICENSE", "CHANGELOG.md"]

jest.setTimeout(180_000)

describe("the published package", () => {
  let dir: string
  let files: string[]
  let pkg: any

  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "odeme-pack-"))
    for (const f of PACKAGE_FILES) fs.copyFileSync(path.join(ROOT, f), path.join(dir, f))
    for (const d of ["src", "bin"]) fs.cpSync(path.join(ROOT, d), path.join(dir, d), { recursive: true })
    fs.symlinkSync(path.join(ROOT, "node_modules"), path.join(dir, "node_modules"), "dir")
    const env = { ...process.env, NODE_OPTIONS: "", MEDUSA_DISABLE_TELEMETRY: "true" }
    execFileSync(process.execPath, [require.resolve("@medusajs/cli/cli.js"), "plugin:build"], { cwd: dir, env, stdio: "pipe" })
    const out = execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: dir, env, stdio: ["ignore", "pipe", "pipe"] })
    files = (JSON.parse(out.toString())[0].files as Array<{ path: string }>).map((f) => f.path).sort()
    pkg = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8"))
  })

  afterAll(() => {
    if (dir) fs.rmSync(dir, { recursive: true, force: true })
  })

  it("has the built server, the Admin bundle, the types and the package's own documents", () => {
    for (const f of [
      "package.json",
      "README.md",
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
      ".medusa/server/src/api/odeme/webhook/route.js",
      ".medusa/server/src/jobs/odeme-poll-transfers.js",
    ]) {
      expect(files).toContain(f)
    }
    // Every module that ships has its types.
    const js = files.filter((f) => f.startsWith(".medusa/server/src/") && f.endsWith(".js") && !f.startsWith(".medusa/server/src/admin/"))
    expect(js.filter((f) => !files.includes(f.replace(/\.js$/, ".d.ts")))).toEqual([])
  })

  it("ships no tests, fixtures, demo data, sources or maps", () => {
    const unwanted = files.filter(
      (f) =>
        /(^|\/)__tests__\//.test(f) ||
        /\.(spec|test)\.[cm]?[jt]sx?$/.test(f) ||
        /\.map$/.test(f) ||
        /^(src|integration-tests|demo|examples|bench|scripts|docs|artifacts|\.ci)\//.test(f) ||
        /\/contract\//.test(f) ||
        (/\.tsx?$/.test(f) && !/\.d\.ts$/.test(f)) ||
        /(^|\/)\.env/.test(f)
    )
    expect(unwanted).toEqual([])
    // Only the emulator's own catalog may be called fixtures (the emulator ships as `odeme-emulator`).
    expect(files.filter((f) => /fixture/i.test(f) && !f.startsWith(".medusa/server/src/emulator/fixtures."))).toEqual([])
  })

  it("exports only what exists, each with its types", () => {
    expect(pkg.exports["./workflows"]).toBeUndefined()
    const concrete = Object.entries(pkg.exports as Record<string, any>).filter(([key]) => !key.includes("*") && key !== "./package.json")
    for (const [key, target] of concrete) {
      const targets = typeof target === "string" ? [target] : Object.values(target as Record<string, string>)
      for (const t of targets) expect({ key, exists: files.includes(t.replace(/^\.\//, "")) }).toEqual({ key, exists: true })
      if (key !== "./admin") expect({ key, types: typeof target === "object" && !!target.types }).toEqual({ key, types: true })
    }
    // The wildcard entries a store uses in medusa-config.
    expect(files).toContain(pkg.exports["./providers/*"].default.replace("./", "").replace("*", "odeme"))
    expect(files).toContain(pkg.exports["./*"].default.replace("./", "").replace("*", "config"))
  })

  it("takes Medusa as a peer range, the way other plugins do", () => {
    for (const [name, range] of Object.entries(pkg.peerDependencies as Record<string, string>)) {
      expect({ name, range }).toEqual({ name, range: expect.stringMatching(/^\^\d+\.\d+\.\d+$/) })
    }
    expect(pkg.peerDependencies["@medusajs/test-utils"]).toBeUndefined()
    expect(pkg.devDependencies.yalc).toBeUndefined()
    expect(pkg.keywords).toEqual(expect.arrayContaining(["medusa-plugin-integration", "medusa-plugin-payment"]))
    expect(pkg.license).toBe("MIT")
    expect(pkg.repository?.url).toEqual(expect.any(String))
  })
})
