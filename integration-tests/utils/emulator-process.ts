import path from "node:path"
import { startEmulator } from "../../scripts/lib/emulator"
import { LOG_DIR } from "./medusa-env"

export interface EmulatorProcess {
  url: string
  apiKey: string
  apiId: number
  control<T = any>(method: "GET" | "POST" | "DELETE", p: string, body?: unknown): Promise<T>
  stop(): Promise<void>
}

let started = 0

/**
 * Starts the emulator as its own process (bin/odeme-emulator.js), exactly as
 * merchants and the demo run it, on a port the OS picks.
 */
export async function startEmulatorProcess(
  opts: { apiKey?: string; apiId?: number; mode?: "sandbox" | "live"; args?: string[] } = {}
): Promise<EmulatorProcess> {
  // The key, id and mode are options, not args: what this returns is what the emulator was given.
  const owned = (opts.args ?? []).filter((a) => /^--(api-key|api-id|mode)\b/.test(a))
  if (owned.length) throw new Error(`startEmulatorProcess: pass ${owned.join(", ")} as options (apiKey, apiId, mode), not as args`)
  const apiKey = opts.apiKey ?? "sandbox_test_key_0001"
  const apiId = opts.apiId ?? 1001
  const emulator = await startEmulator({
    // A merchant needs an active callback URL to create transfers (§4.5 rule 2). Nothing listens on
    // this one: a test that wants Medusa to receive webhooks points it at its backend (or passes its own).
    args: [
      "--api-key",
      apiKey,
      "--api-id",
      String(apiId),
      "--mode",
      opts.mode ?? "sandbox",
      "--webhook-url",
      "http://127.0.0.1:9/odeme/webhook",
      ...(opts.args ?? []),
    ],
    // From source: a test never runs a stale (or half-rebuilt) build.
    env: { ...process.env, NODE_OPTIONS: "", ODEME_EMULATOR_FROM_SOURCE: "1" },
    logFile: path.join(LOG_DIR, `emulator-${process.pid}-${++started}.log`),
    // In the test runner's process group: a Ctrl-C or a killed run leaves no emulator behind.
    detached: false,
  })
  return { url: emulator.url, apiKey, apiId, control: emulator.control, stop: emulator.stop }
}
