/**
 * `node scripts/demo.js`'s command line: the usage for --help, a refusal for anything
 * else it does not know, and the settings it runs with. The process cases run the real
 * script; each must end before it builds, migrates or starts anything.
 */
import { spawn } from "node:child_process"
import fs from "node:fs"
import os from "node:os"
import path from "node:path"
import { DEMO_PORTS, DemoUsageError, demoUsage, parseDemoArgs } from "../args"
import { demoConfig, type DemoConfig } from "../config"

const SCRIPT = path.join(__dirname, "..", "..", "..", "demo.js")

/** Runs demo.js to its end; `dataDir` is where it would have written anything. */
function runDemo(args: string[], env: Record<string, string> = {}) {
  const dataDir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "odeme-demo-cli-")), "data")
  const child = spawn(process.execPath, [SCRIPT, ...args], {
    env: { ...process.env, DEMO_DATA_DIR: dataDir, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  })
  let stdout = ""
  let stderr = ""
  child.stdout.on("data", (d) => (stdout += d))
  child.stderr.on("data", (d) => (stderr += d))
  return new Promise<{ code: number | null; stdout: string; stderr: string; wroteData: boolean }>((resolve) =>
    child.once("close", (code) => {
      const wroteData = fs.existsSync(dataDir)
      fs.rmSync(path.dirname(dataDir), { recursive: true, force: true })
      resolve({ code, stdout, stderr, wroteData })
    })
  )
}

const config = (argv: string[], env: NodeJS.ProcessEnv = {}) => demoConfig(argv, env) as DemoConfig

describe("the demo's arguments", () => {
  it("knows its flags and values, in both --name value and --name=value forms", () => {
    expect(parseDemoArgs(["--ci", "--data-dir", "/x/y", "--db-name=shop_1", "--verbose"])).toEqual({
      help: false,
      ci: true,
      check: false,
      rebuild: false,
      migrate: false,
      verbose: true,
      dataDir: "/x/y",
      dbName: "shop_1",
    })
    expect(parseDemoArgs(["--check", "--rebuild", "--migrate"])).toMatchObject({ check: true, rebuild: true, migrate: true, ci: false })
  })

  it.each([["--help"], ["-h"], ["--ci", "--help"]])("answers the usage for %s", (...argv) => {
    expect(parseDemoArgs(argv)).toEqual({ help: true })
  })

  it.each([
    [["--hepl"], "unknown option --hepl"],
    [["--port", "9100"], "unknown option --port"],
    [["check"], 'unexpected argument "check"'],
    [["--data-dir"], "--data-dir needs a value"],
    [["--data-dir", "--ci"], "--data-dir needs a value"],
    [["--db-name="], "--db-name needs a value"],
  ])("refuses %j", (argv, message) => {
    expect(() => parseDemoArgs(argv)).toThrow(new DemoUsageError(message))
  })

  it("describes every port with its variable and default, the data directory and how to start over", () => {
    const usage = demoUsage()
    for (const p of DEMO_PORTS) expect(usage).toMatch(new RegExp(`${p.variable}\\s+.*\\(${p.fallback}\\)`))
    for (const flag of ["--check", "--rebuild", "--migrate", "--verbose", "--data-dir <dir>", "--db-name <name>", "--ci", "--help"]) {
      expect(usage).toContain(flag)
    }
    expect(usage).toContain("rm -rf demo/.data")
  })
})

describe("the demo's settings", () => {
  it("takes each port from its variable, and the addresses follow", () => {
    const cfg = config([], { ODEME_DEMO_MEDUSA_PORT: "9100", ODEME_DEMO_STOREFRONT_PORT: "8100", ODEME_DEMO_EMULATOR_PORT: "4110" })
    expect(cfg.ports.map((p) => [p.variable, p.port])).toEqual([
      ["ODEME_DEMO_MEDUSA_PORT", 9100],
      ["ODEME_DEMO_STOREFRONT_PORT", 8100],
      ["ODEME_DEMO_EMULATOR_PORT", 4110],
    ])
    expect([cfg.backendUrl, cfg.storefrontUrl, cfg.emulatorUrl]).toEqual(["http://localhost:9100", "http://localhost:8100", "http://127.0.0.1:4110"])
  })

  it("leaves the emulator's port out when the real service is used", () => {
    const cfg = config([], { ODEME_BASE_URL: "https://sandbox.example", ODEME_DEMO_EMULATOR_PORT: "8000" })
    expect(cfg.ports.map((p) => p.key)).toEqual(["medusaPort", "storefrontPort"])
  })

  it.each([
    [{ ODEME_DEMO_STOREFRONT_PORT: "80a" }, 'ODEME_DEMO_STOREFRONT_PORT must be a port number (1-65535), got "80a"'],
    [{ ODEME_DEMO_MEDUSA_PORT: "70000" }, 'ODEME_DEMO_MEDUSA_PORT must be a port number (1-65535), got "70000"'],
    [{ ODEME_DEMO_STOREFRONT_PORT: "9000" }, "ODEME_DEMO_MEDUSA_PORT and ODEME_DEMO_STOREFRONT_PORT are both 9000"],
    [{ DEMO_DB_NAME: "shop-1" }, 'invalid database name "shop-1"'],
  ])("refuses %j", (env, message) => {
    expect(() => demoConfig([], env)).toThrow(DemoUsageError)
    expect(() => demoConfig([], env)).toThrow(message)
  })
})

describe("node scripts/demo.js", () => {
  it("prints the usage for --help and exits 0, starting nothing", async () => {
    const r = await runDemo(["--help"])
    expect(r).toMatchObject({ code: 0, stdout: demoUsage(), wroteData: false })
  })

  it("refuses an unknown option with the usage and exit code 2, starting nothing", async () => {
    const r = await runDemo(["--port", "9100"])
    expect(r).toMatchObject({ code: 2, stdout: "", wroteData: false })
    expect(r.stderr).toBe(`[demo] unknown option --port\n\n${demoUsage()}`)
  })

  it("refuses a wrong port setting the same way", async () => {
    const r = await runDemo([], { ODEME_DEMO_STOREFRONT_PORT: "eighty" })
    expect(r).toMatchObject({ code: 2, wroteData: false })
    expect(r.stderr).toContain("ODEME_DEMO_STOREFRONT_PORT must be a port number")
  })
})
