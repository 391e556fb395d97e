import { spawn, type ChildProcess } from "node:child_process"
import path from "node:path"

const ROOT = path.resolve(__dirname, "../..")

export interface EmulatorProcess {
  url: string
  apiKey: string
  apiId: number
  control<T = any>(method: "GET" | "POST" | "DELETE", p: string, body?: unknown): Promise<T>
  stop(): Promise<void>
}

/**
 * Starts the emulator as its own process (bin/odeme-emulator.js), exactly as
 * merchants and the demo run it, and waits for its "listening on" line.
 */
export async function startEmulatorProcess(
  opts: { apiKey?: string; apiId?: number; mode?: "sandbox" | "live"; args?: string[] } = {}
): Promise<EmulatorProcess> {
  const apiKey = opts.apiKey ?? "sandbox_test_key_0001"
  const apiId = opts.apiId ?? 1001
  const args = [
    path.join(ROOT, "bin/odeme-emulator.js"),
    "--port",
    "0",
    "--api-key",
    apiKey,
    "--api-id",
    String(apiId),
    "--mode",
    opts.mode ?? "sandbox",
    ...(opts.args ?? []),
  ]
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, NODE_OPTIONS: "", ODEME_EMULATOR_FROM_SOURCE: "1" },
  })
  let stderr = ""
  child.stderr!.on("data", (d) => (stderr += d))
  const url = await new Promise<string>((resolve, reject) => {
    let out = ""
    const timer = setTimeout(() => reject(new Error(`emulator did not start in 20 s: ${stderr}`)), 20_000)
    child.stdout!.on("data", (d) => {
      out += d
      const m = /listening on (\S+)/.exec(out)
      if (m) {
        clearTimeout(timer)
        resolve(m[1])
      }
    })
    child.on("exit", (code) => {
      clearTimeout(timer)
      reject(new Error(`emulator exited with ${code}: ${stderr}`))
    })
  })
  child.stdout!.resume()

  const control = async (method: "GET" | "POST" | "DELETE", p: string, body?: unknown) => {
    const res = await fetch(url + p, {
      method,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    const text = await res.text()
    if (!res.ok) throw new Error(`emulator control ${method} ${p} → ${res.status}: ${text}`)
    return text ? JSON.parse(text) : undefined
  }

  return {
    url,
    apiKey,
    apiId,
    control,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve()
        child.once("exit", () => resolve())
        child.kill("SIGTERM")
        setTimeout(() => child.kill("SIGKILL"), 3000).unref()
      }),
  }
}
