/**
 * The demo's port check, before it builds or migrates anything, against ports that are
 * really taken (a listening server) or free (the OS's pick, closed again).
 */
import { spawn, type ChildProcess } from "node:child_process"
import fs from "node:fs"
import net from "node:net"
import os from "node:os"
import path from "node:path"
import { freePort } from "../../ports"
import { demoConfig, type DemoConfig } from "../config"
import { takenDemoPorts } from "../ports"

const SCRIPT = path.join(__dirname, "..", "..", "..", "demo.js")

function listen(): Promise<net.Server> {
  return new Promise((resolve, reject) => {
    const server = net.createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => resolve(server))
  })
}
const portOf = (server: net.Server) => (server.address() as net.AddressInfo).port
const close = (server: net.Server) => new Promise((r) => server.close(r))

describe("the demo's port check", () => {
  let busy: net.Server
  let env: Record<string, string>
  let demo: ChildProcess | undefined
  beforeEach(async () => {
    busy = await listen()
    env = {
      ODEME_DEMO_MEDUSA_PORT: String(await freePort()),
      ODEME_DEMO_STOREFRONT_PORT: String(portOf(busy)),
      ODEME_DEMO_EMULATOR_PORT: String(await freePort()),
    }
  })
  afterEach(async () => {
    // Should the check let it through, the demo would go on building: it must not outlive the test.
    if (demo && demo.exitCode === null && demo.signalCode === null) demo.kill("SIGKILL")
    await close(busy)
  })

  it("names a taken port, the variable that moves it and a free port to move it to", async () => {
    const messages = await takenDemoPorts(demoConfig([], env) as DemoConfig)
    expect(messages).toHaveLength(1)
    const m = /^port (\d+) \(the storefront\) is in use: .*or move it: ODEME_DEMO_STOREFRONT_PORT=(\d+) npm run demo$/.exec(messages[0])
    expect(m).not.toBeNull()
    expect(Number(m![1])).toBe(portOf(busy))
    const suggested = Number(m![2])
    expect(suggested).toBeGreaterThan(portOf(busy))
    // The suggestion is free now: something can listen there.
    const probe = net.createServer()
    await new Promise<void>((resolve, reject) => probe.once("error", reject).listen(suggested, "127.0.0.1", resolve))
    await close(probe)
  })

  it("names every taken port, not only the first", async () => {
    const second = await listen()
    try {
      const messages = await takenDemoPorts(demoConfig([], { ...env, ODEME_DEMO_EMULATOR_PORT: String(portOf(second)) }) as DemoConfig)
      expect(messages.map((m) => m.match(/ODEME_DEMO_\w+_PORT/)![0])).toEqual(["ODEME_DEMO_STOREFRONT_PORT", "ODEME_DEMO_EMULATOR_PORT"])
    } finally {
      await close(second)
    }
  })

  it("passes when every port is free, and skips the emulator's when the real service is used", async () => {
    expect(await takenDemoPorts(demoConfig([], { ...env, ODEME_DEMO_STOREFRONT_PORT: String(await freePort()) }) as DemoConfig)).toEqual([])
    const real = demoConfig([], {
      ...env,
      ODEME_DEMO_STOREFRONT_PORT: String(await freePort()),
      ODEME_DEMO_EMULATOR_PORT: String(portOf(busy)),
      ODEME_BASE_URL: "https://sandbox.example",
    })
    expect(await takenDemoPorts(real as DemoConfig)).toEqual([])
  })

  it("stops node scripts/demo.js with exit code 1 before it builds, migrates or writes anything", async () => {
    const dataDir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "odeme-demo-ports-")), "data")
    const child = (demo = spawn(process.execPath, [SCRIPT, "--data-dir", dataDir], {
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    }))
    let out = ""
    child.stdout.on("data", (d) => (out += d))
    child.stderr.on("data", (d) => (out += d))
    const code = await new Promise((resolve) => child.once("close", resolve))
    const wroteData = fs.existsSync(dataDir)
    fs.rmSync(path.dirname(dataDir), { recursive: true, force: true })
    expect({ code, wroteData }).toEqual({ code: 1, wroteData: false })
    expect(out).toContain(`[demo] ERROR: port ${portOf(busy)} (the storefront) is in use`)
    expect(out).toContain("ODEME_DEMO_STOREFRONT_PORT=")
    expect(out).not.toContain("1/7")
  })
})
