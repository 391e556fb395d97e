import { spawn, type ChildProcess } from "node:child_process"
import path from "node:path"

const BIN = path.join(__dirname, "..", "..", "..", "bin", "odeme-emulator.js")

function startCli(args: string[], env: Record<string, string> = {}): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] })
  return new Promise((resolve, reject) => {
    let out = ""
    let err = ""
    const timer = setTimeout(() => reject(new Error(`cli did not start: ${out} ${err}`)), 15_000)
    child.stderr!.on("data", (d) => (err += d))
    child.stdout!.on("data", (d) => {
      out += d
      const m = /^odeme-emulator listening on (http:\/\/\S+)$/m.exec(out)
      if (m) {
        clearTimeout(timer)
        resolve({ child, url: m[1] })
      }
    })
    child.on("exit", (code) => {
      clearTimeout(timer)
      reject(new Error(`cli exited with ${code}: ${out} ${err}`))
    })
  })
}

function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => child.once("exit", (code) => resolve(code)))
}

describe("cli", () => {
  it("starts on a random port, serves health, and stops on SIGTERM", async () => {
    const { child, url } = await startCli(["--port", "0", "--quiet"])
    try {
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
      expect(url).not.toMatch(/:0$/)
      const res = await fetch(url + "/_control/health")
      expect(res.status).toBe(200)
      expect(await res.json()).toMatchObject({ ok: true })
    } finally {
      const done = exited(child)
      child.kill("SIGTERM")
      expect(await done).toBe(0)
    }
  }, 20_000)

  it("takes settings from the environment; flags win", async () => {
    const { child, url } = await startCli(["--port=0", "--api-key", "flag_key", "--mode", "live"], {
      ODEME_EMULATOR_API_KEY: "env_key",
      ODEME_EMULATOR_API_ID: "4242",
    })
    try {
      const ok = await fetch(url + "/api/pay/bank_transfer/bank-group/list", { headers: { "api-key": "flag_key" } })
      expect(ok.status).toBe(200)
      const envKey = await fetch(url + "/api/pay/bank_transfer/bank-group/list", { headers: { "api-key": "env_key" } })
      expect(envKey.status).toBe(401)
      const cfg = await (await fetch(url + "/_control/config")).json()
      expect(cfg.accesses[0]).toEqual({ apiId: 4242, mode: "live", apiIp: "0.0.0.0" })
      expect(JSON.stringify(cfg)).not.toContain("flag_key")
    } finally {
      const done = exited(child)
      child.kill("SIGINT")
      await done
    }
  }, 20_000)
})
