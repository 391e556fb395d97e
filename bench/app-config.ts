/**
 * The bench app: the repository's medusa-config.js plus two references,
 * added to the loaded config object before Medusa boots (medusa-config.js is
 * unchanged):
 * - the payment provider `pp_odeme-checkout_ref` (bench/reference-provider.ts),
 *   a provider written for Medusa's core hook route, for "time to paid";
 * - the local plugin bench/reference-app with POST /bench/insert, the
 *   durable-ingest limit. Medusa loads a plugin's code from
 *   `<plugin>/.medusa/server/src`; that folder is made under .tmp as a link to
 *   bench/reference-app, so nothing generated is committed.
 */
import fs from "node:fs"
import path from "node:path"

export const ROOT = path.resolve(__dirname, "..")
export const REF_PROVIDER = "pp_odeme-checkout_ref"

export function addBenchReferences(): void {
  // eslint-disable-next-line @typescript-eslint/no-var-requires
  const config = require(path.join(ROOT, "medusa-config.js"))
  const modules = Array.isArray(config.modules) ? config.modules : Object.values(config.modules)
  const payment = modules.find((m: any) => Array.isArray(m?.options?.providers) && m.options.providers.some((p: any) => p.id === "odeme"))
  if (!payment) throw new Error("bench: the payment module with the odeme provider was not found in medusa-config.js")
  const odeme = payment.options.providers.find((p: any) => p.id === "odeme")
  // The load comes from one address; the per-address limit (600 a minute) would answer most of it 429.
  // The module and the provider share this options object, so both see the same value.
  odeme.options.webhook = { ...(odeme.options.webhook ?? {}), maxPerMinutePerAddress: 1_000_000 }
  // The poller is measured up to concurrency 20: the client's pool (pollConcurrency + 8 connections) must not be the bound.
  odeme.options.transfer = { ...(odeme.options.transfer ?? {}), pollConcurrency: 20 }
  if (!payment.options.providers.some((p: any) => p.id === "ref")) {
    payment.options.providers.push({ resolve: path.join(ROOT, "bench/reference-provider"), id: "ref", options: odeme.options })
  }
  const plugin = referencePluginDir()
  config.plugins = [...(config.plugins ?? []).filter((p: any) => (p?.resolve ?? p) !== plugin), { resolve: plugin, options: {} }]
}

function referencePluginDir(): string {
  const dir = path.join(ROOT, ".tmp/bench-reference-plugin")
  const src = path.join(dir, ".medusa/server/src")
  fs.mkdirSync(path.dirname(src), { recursive: true })
  fs.copyFileSync(path.join(ROOT, "bench/reference-app/package.json"), path.join(dir, "package.json"))
  fs.rmSync(src, { recursive: true, force: true })
  fs.symlinkSync(path.join(ROOT, "bench/reference-app"), src, "dir")
  return dir
}
