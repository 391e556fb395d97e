import { execFile } from "node:child_process"
import path from "node:path"
import { ROOT } from "../app-config"
import type { BurstSpec } from "../burst-load"
import type { LoadSpec } from "../load"

/** What every section of the bench gets from the booted app. */
export interface BenchContext {
  db: () => any
  backendUrl: string
  container: () => any
  api: any
  emulator: { control(method: string, path: string, body?: unknown): Promise<any> }
}

export interface LoadResult {
  requests: number
  rps: number
  p50: number
  p99: number
  max: number
  ok2xx: number
  non2xx: number
  errors: number
  timeouts: number
}

/** autocannon in its own process (bench/load.ts), so it never shares Medusa's event loop. */
export const load = (spec: LoadSpec) => sender("bench/load.ts", spec)

/** A burst, all requests at once, from its own process (bench/burst-load.ts). */
export const burstLoad = (spec: BurstSpec) => sender("bench/burst-load.ts", spec)

function sender(script: string, spec: LoadSpec | BurstSpec): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ["-r", path.join(ROOT, "scripts/register-ts.js"), path.join(ROOT, script), JSON.stringify(spec)],
      { cwd: ROOT, env: { ...process.env, NODE_OPTIONS: "" }, maxBuffer: 10 * 1024 * 1024 },
      (err, stdout, stderr) => {
        if (err) return reject(new Error(`load generator failed: ${err.message}\n${stderr}`))
        resolve(JSON.parse(stdout.trim().split("\n").pop()!))
      }
    )
  })
}

/** A webhook body as the service sends it (spec §6.2); the hash is not the service's, so verify refuses it. */
export function webhookBody(sessionId: string, uuid: string) {
  return {
    order_id: sessionId,
    uuid,
    status: "successful",
    hash: "f".repeat(64),
    amount: "250.00",
    currency: "TRY",
    type: "credit_card",
    message: "",
    transaction_id: "bench",
  }
}

/** Payment rows for `n` sessions straight in the plugin's table: the webhook route only needs the session to exist. */
export async function insertCheckoutPayments(db: any, prefix: string, n: number): Promise<string[]> {
  const ids = Array.from({ length: n }, (_, i) => `payses_${prefix}${String(i).padStart(6, "0")}`)
  await db.raw(
    `insert into odeme_payment (id, session_id, provider, flow, mode, amount, currency)
     select 'odpay_' || s, s, 'odeme-checkout', 'card', 'sandbox', '250.00', 'TRY' from unnest(?::text[]) s
     on conflict do nothing`,
    [ids]
  )
  return ids
}

/** Waits until no notification is received or processing, up to `timeoutMs`; the seconds it took. */
export async function waitForDrain(db: any, timeoutMs = 180_000): Promise<number> {
  const t0 = Date.now()
  while (Date.now() - t0 < timeoutMs) {
    const [{ n }] = (await db.raw(`select count(*)::int as n from odeme_notification where state in ('received', 'processing')`)).rows
    if (n === 0) break
    await new Promise((r) => setTimeout(r, 200))
  }
  return Math.round((Date.now() - t0) / 100) / 10
}
