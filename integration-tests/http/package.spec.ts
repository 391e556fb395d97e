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
import { packageProblems } from "../../scripts/lib/package-contents"

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

  it("has the built server, the Admin bundle, the types and the package's own documents; no tests, sources or maps", () => {
    // The same rules scripts/pack.js applies to the real tarball before a release.
    expect(packageProblems(files)).toEqual([])
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
      // Optional: a storefront that imports only medusa-payment-odeme/storefront must not get Medusa's server installed.
      expect({ name, optional: pkg.peerDependenciesMeta?.[name]?.optional }).toEqual({ name, optional: true })
    }
    expect(pkg.peerDependencies["@medusajs/test-utils"]).toBeUndefined()
    expect(pkg.devDependencies.yalc).toBeUndefined()
    expect(pkg.keywords).toEqual(expect.arrayContaining(["medusa-plugin-integration", "medusa-plugin-payment"]))
    expect(pkg.license).toBe("MIT")
    expect(pkg.repository?.url).toEqual(expect.any(String))
  })
})
