/**
 * What `npm publish` would ship: the shared plugin build (`.medusa/server`,
 * built only when stale, as `scripts/pack.js` and the e2e stack build it),
 * read through `npm pack --dry-run --json`. A store needs the built server,
 * the Admin bundle and the types; never tests, fixtures, demo data or sources.
 */
import { execFileSync } from "node:child_process"
import fs from "node:fs"
import path from "node:path"
import { ROOT, ensurePluginBuilt } from "../../scripts/lib/plugin-build"
import { packageProblems } from "../../scripts/lib/package-contents"
import { LOG_DIR } from "../utils/medusa-env"

jest.setTimeout(180_000)

describe("the published package", () => {
  let files: string[]
  let pkg: any

  beforeAll(async () => {
    const env = { ...process.env, NODE_OPTIONS: "", MEDUSA_DISABLE_TELEMETRY: "true" }
    await ensurePluginBuilt({ logFile: path.join(LOG_DIR, `plugin-build-${process.pid}.log`), env })
    const out = execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] })
    files = (JSON.parse(out.toString())[0].files as Array<{ path: string }>).map((f) => f.path).sort()
    pkg = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8"))
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
