import type { MedusaContainer } from "@medusajs/framework/types"
import { freePort } from "../../scripts/lib/ports"
import { startEmulatorProcess, type EmulatorProcess } from "./emulator-process"

export { freePort }

export interface OdemeTestEnvironment {
  emulator: EmulatorProcess
  /** Medusa's own URL (the plugin's backendUrl). */
  backendUrl: string
  env: Record<string, string>
}

/**
 * What a suite of an HTTP spec gets: the emulator and URLs of the file's environment, and
 * the runner's Medusa. Suites of one environment share one Medusa boot (integration-tests/http/*.spec.ts).
 */
export interface SuiteContext {
  env: OdemeTestEnvironment
  api: any
  getContainer: () => MedusaContainer
}

/**
 * A clean emulator that delivers its webhooks to this Medusa and retries them after
 * `retryDelaysMs` (fast, so no test waits out the service's own schedule).
 */
export async function resetEmulator(env: OdemeTestEnvironment, retryDelaysMs: number[] = [300, 600, 1200, 2400]): Promise<void> {
  await env.emulator.control("POST", "/_control/reset")
  await env.emulator.control("POST", "/_control/config", { webhookUrl: `${env.backendUrl}/odeme/webhook`, webhookRetryDelaysMs: retryDelaysMs })
}

/**
 * Call at the top of an HTTP spec, before medusaIntegrationTestRunner: starts
 * the emulator process and fixes Medusa's port, so medusa-config.js (read
 * when the runner boots) points the plugin at both.
 */
export function useOdemeEnvironment(
  opts: { mode?: "sandbox" | "live"; apiKey?: string; env?: Record<string, string>; emulatorArgs?: string[] } = {}
): OdemeTestEnvironment {
  const ctx = { env: {} } as OdemeTestEnvironment
  jest.setTimeout(180_000)
  beforeAll(async () => {
    // The key the emulator and the plugin share; suites read it back as env.emulator.apiKey.
    ctx.emulator = await startEmulatorProcess({ mode: opts.mode, apiKey: opts.apiKey, args: opts.emulatorArgs })
    const port = await freePort()
    ctx.backendUrl = `http://localhost:${port}`
    ctx.env = {
      PORT: String(port),
      ODEME_BASE_URL: ctx.emulator.url,
      ODEME_API_KEY: ctx.emulator.apiKey,
      ODEME_API_ID: String(ctx.emulator.apiId),
      ODEME_MODE: opts.mode ?? "sandbox",
      ODEME_BACKEND_URL: ctx.backendUrl,
      ...(opts.env ?? {}),
    }
    Object.assign(process.env, ctx.env)
  })
  afterAll(async () => {
    await ctx.emulator?.stop()
  })
  return ctx
}
