/**
 * `npm run bench` (scripts/bench.js runs this file with jest, outside `npm test`):
 * boots Medusa with the repository's test app exactly like the HTTP tests
 * (medusaIntegrationTestRunner + the emulator process), measures, and writes
 * bench-results/results.json. Nothing here asserts a timing.
 *
 * The bench app is the repository's medusa-config.js plus one extra payment
 * provider, `pp_odeme-checkout_ref` (bench/reference-provider.ts), added to
 * the loaded config object before Medusa boots; medusa-config.js is unchanged.
 */
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { execFile } from "node:child_process"
import { randomUUID } from "node:crypto"
import fs from "node:fs"
import os from "node:os"
import path from "node:path"
import { pollTransfers } from "../src/lib/poll-transfers"
import { openCheckout, payByCard, waitFor } from "../integration-tests/utils/checkout-driver"
import { insertPendingTransfers } from "../integration-tests/utils/bulk-transfers"
import { useOdemeEnvironment } from "../integration-tests/utils/environment"
import { paymentProvider } from "../integration-tests/utils/inspect"
import { CHECKOUT_PROVIDER, cartWithSession, seedStore, type SeededStore } from "../integration-tests/utils/store"

const ROOT = path.resolve(__dirname, "..")
const REF_PROVIDER = "pp_odeme-checkout_ref"
const num = (name: string, fallback: number) => (process.env[name] ? Number(process.env[name]) : fallback)
const CFG = {
  ingestDurationS: num("BENCH_INGEST_SECONDS", 8),
  ingestConnections: (process.env.BENCH_INGEST_CONNECTIONS ?? "10,100").split(",").map(Number),
  payments: num("BENCH_PAYMENTS", 50),
  /** Approvals are spaced so payments overlap a little without building a queue on a small machine. */
  paymentSpacingMs: num("BENCH_PAYMENT_SPACING_MS", 400),
  pollerSizes: (process.env.BENCH_POLLER_SIZES ?? "1000,10000").split(",").map(Number),
  pollerConcurrency: num("BENCH_POLLER_CONCURRENCY", 20),
  pollerDelayMs: 20,
  initiateCalls: num("BENCH_INITIATE_CALLS", 2000),
}

const env = useOdemeEnvironment({ env: { ODEME_POLLER_ENABLED: "false", ODEME_STOREFRONT_URL: "http://localhost:8000" } })

// Runs after useOdemeEnvironment's beforeAll (process.env points at the emulator) and before Medusa boots.
beforeAll(() => {
  // eslint-disable-next-line @typescript-eslint/no-var-requires
  const config = require(path.join(ROOT, "medusa-config.js"))
  const modules = Array.isArray(config.modules) ? config.modules : Object.values(config.modules)
  const payment = modules.find((m: any) => Array.isArray(m?.options?.providers) && m.options.providers.some((p: any) => p.id === "odeme"))
  if (!payment) throw new Error("bench: the payment module with the odeme provider was not found in medusa-config.js")
  const odeme = payment.options.providers.find((p: any) => p.id === "odeme")
  if (!payment.options.providers.some((p: any) => p.id === "ref")) {
    payment.options.providers.push({ resolve: path.join(ROOT, "bench/reference-provider"), id: "ref", options: odeme.options })
  }
})

const pct = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : NaN)
const round = (n: number, d = 1) => Math.round(n * 10 ** d) / 10 ** d
function stats(values: number[]) {
  const s = [...values].sort((a, b) => a - b)
  return { n: s.length, p50: round(pct(s, 50), 2), p95: round(pct(s, 95), 2), p99: round(pct(s, 99), 2), max: round(s[s.length - 1] ?? NaN, 2) }
}
const log = (m: string) => process.stdout.write(`[bench] ${m}\n`)
/** A full GC, also inside jest's sandbox (where global.gc is not passed through). */
function forceGc(): boolean {
  try {
    // eslint-disable-next-line @typescript-eslint/no-var-requires
    require("node:v8").setFlagsFromString("--expose-gc")
    // eslint-disable-next-line @typescript-eslint/no-var-requires
    const gc = require("node:vm").runInNewContext("gc") as () => void
    gc()
    return true
  } catch {
    return false
  }
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

function load(spec: { url: string; connections: number; durationS: number; body: Record<string, unknown>; unique: boolean }): Promise<any> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ["-r", path.join(ROOT, "scripts/register-ts.js"), path.join(ROOT, "bench/load.ts"), JSON.stringify(spec)],
      { cwd: ROOT, env: { ...process.env, NODE_OPTIONS: "" }, maxBuffer: 10 * 1024 * 1024 },
      (err, stdout, stderr) => {
        if (err) return reject(new Error(`load generator failed: ${err.message}\n${stderr}`))
        resolve(JSON.parse(stdout.trim().split("\n").pop()!))
      }
    )
  })
}

medusaIntegrationTestRunner({
  cwd: ROOT,
  testSuite: ({ api, getContainer }) => {
    const db = () => getContainer().resolve(ContainerRegistrationKeys.PG_CONNECTION)
    const results: Record<string, unknown> = {
      machine: { cpus: os.cpus().length, cpu_model: os.cpus()[0]?.model, node: process.version, platform: `${os.platform()} ${os.release()}`, date: new Date().toISOString() },
      config: CFG,
    }

    async function openNotifications(): Promise<number> {
      const [{ n }] = (await db().raw(`select count(*)::int as n from odeme_notification where state in ('received', 'processing')`)).rows
      return n
    }

    async function webhookIngest(store: SeededStore) {
      const { session } = await cartWithSession(api, store, CHECKOUT_PROVIDER, {})
      const body = {
        order_id: session.id,
        uuid: randomUUID(),
        status: "successful",
        hash: "f".repeat(64),
        amount: "250.00",
        currency: "TRY",
        type: "credit_card",
        message: "",
        transaction_id: "bench",
      }
      const rows: any[] = []
      for (const connections of CFG.ingestConnections) {
        const variants = [
          { name: "plugin /odeme/webhook, unique notifications", path: "/odeme/webhook", unique: true },
          { name: "plugin /odeme/webhook, duplicates of one", path: "/odeme/webhook", unique: false },
          { name: "core /hooks/payment/odeme-checkout_odeme", path: "/hooks/payment/odeme-checkout_odeme", unique: true },
        ]
        for (const v of variants) {
          const before = (await db().raw(`select count(*)::int as n from odeme_notification`)).rows[0].n
          log(`ingest: ${v.name}, ${connections} connections, ${CFG.ingestDurationS} s`)
          const r = await load({ url: env.backendUrl + v.path, connections, durationS: CFG.ingestDurationS, body: { ...body, uuid: randomUUID() }, unique: v.unique })
          const after = (await db().raw(`select count(*)::int as n from odeme_notification`)).rows[0].n
          // The plugin verifies every new notification in the background: let that finish before the next run.
          const t0 = Date.now()
          if (v.path === "/odeme/webhook") await waitFor(async () => (await openNotifications()) === 0, 120_000, 250).catch(() => undefined)
          else await sleep(6_000) // the core route's events are delayed 5 s (Medusa's default webhook_delay)
          rows.push({ route: v.name, connections, ...r, rows_stored: after - before, backlog_drain_s: round((Date.now() - t0) / 1000, 1) })
        }
      }
      for (const connections of CFG.ingestConnections) {
        const get = (name: string) => rows.find((r) => r.connections === connections && r.route.startsWith(name))
        const core = get("core")
        for (const r of rows.filter((x) => x.connections === connections && x !== core)) {
          r.rps_ratio_vs_core = round(r.rps / core.rps, 3)
          r.p99_ratio_vs_core = round(r.p99 / core.p99, 2)
        }
      }
      results.webhook_ingest = rows
    }

    async function timeToPaid(store: SeededStore, provider: string, webhookPath: string) {
      await env.emulator.control("POST", "/_control/config", { webhookUrl: env.backendUrl + webhookPath })
      // Prepare every payment first (cart, session, signed form, checkout page), five at a time.
      const pages: Array<{ sessionId: string; page: string }> = []
      // One cart first: concurrent first carts of a new guest email race in Medusa ("customer already exists").
      await cartWithSession(api, store, provider, {})
      for (let i = 0; i < CFG.payments; i += 5) {
        const batch = await Promise.all(
          Array.from({ length: Math.min(5, CFG.payments - i) }, async () => {
            const { cart, session, response } = await cartWithSession(api, store, provider, {}).catch((e: any) => {
              throw new Error(`cart for ${provider}: ${e?.response?.status} ${JSON.stringify(e?.response?.data)}`)
            })
            if (response.status !== 200) throw new Error(`session for ${provider}: ${response.status} ${JSON.stringify(response.data)}`)
            const { data } = await api.post(`/store/odeme/payment-sessions/${session.id}/form`, { cart_id: cart.id }, store.headers)
            return { sessionId: session.id as string, page: await openCheckout(data.form) }
          })
        )
        pages.push(...batch)
      }
      // Approve one every paymentSpacingMs (the emulator sends the webhook at once), then wait for every capture.
      const started = Date.now()
      await Promise.all(pages.map((p, i) => sleep(i * CFG.paymentSpacingMs).then(() => payByCard(p.page, "approve"))))
      const ids = pages.map((p) => p.sessionId)
      const captured = async () =>
        (
          await db().raw(
            `select p.payment_session_id as id, coalesce(p.captured_at, (select min(c.created_at) from capture c where c.payment_id = p.id)) as at
             from payment p where p.payment_session_id = any(?) and p.deleted_at is null`,
            [ids]
          )
        ).rows.filter((r: any) => r.at)
      await waitFor(async () => (await captured()).length === ids.length, 120_000, 250).catch(() => undefined)
      const done = await captured()
      const hooks = ((await env.emulator.control("GET", "/_control/webhooks")).result as any[]).filter((h) => ids.includes(h.body.order_id))
      const sentAt = new Map<string, number>()
      for (const h of hooks) {
        const t = Date.parse(h.attempts?.[0]?.time ?? h.created_at)
        if (!sentAt.has(h.body.order_id) || t < sentAt.get(h.body.order_id)!) sentAt.set(h.body.order_id, t)
      }
      const byId = new Map<string, number>(done.map((r: any) => [r.id as string, new Date(r.at).getTime()]))
      const inOrder = ids.filter((id) => byId.has(id) && sentAt.has(id)).map((id) => byId.get(id)! - sentAt.get(id)!)
      return {
        provider,
        webhook: webhookPath,
        payments: ids.length,
        captured: done.length,
        spacing_ms: CFG.paymentSpacingMs,
        wall_s: round((Date.now() - started) / 1000, 1),
        ms: stats(inOrder),
        ms_in_approval_order: inOrder,
      }
    }

    async function poller() {
      const out: any[] = []
      const runs = CFG.pollerSizes.map((n) => ({ n, concurrency: CFG.pollerConcurrency }))
      if (CFG.pollerConcurrency !== 5 && CFG.pollerSizes.includes(1000)) runs.unshift({ n: 1000, concurrency: 5 })
      for (const { n, concurrency } of runs) {
        await db()("odeme_payment").where("session_id", "like", "payses_bench%").delete()
        await insertPendingTransfers(db(), n, "bench")
        await env.emulator.control("DELETE", "/_control/faults")
        await env.emulator.control("POST", "/_control/faults", { endpoint: "uuid", mode: "slow", delayMs: CFG.pollerDelayMs, count: n })
        const gcAvailable = forceGc()
        const { rss: rssBefore, heapUsed: heapBefore } = process.memoryUsage()
        let peak = rssBefore
        let heapPeak = heapBefore
        const sampler = setInterval(() => {
          const m = process.memoryUsage()
          peak = Math.max(peak, m.rss)
          heapPeak = Math.max(heapPeak, m.heapUsed)
        }, 20)
        log(`poller: ${n} pending transfers, concurrency ${concurrency}`)
        const t0 = performance.now()
        const s = await pollTransfers(getContainer(), { maxPerRun: n, concurrency, timeBudgetMs: 600_000 })
        const ms = performance.now() - t0
        clearInterval(sampler)
        peak = Math.max(peak, process.memoryUsage().rss)
        forceGc()
        const heapAfterGc = process.memoryUsage().heapUsed
        await env.emulator.control("DELETE", "/_control/faults")
        const limitMs = (n * CFG.pollerDelayMs) / concurrency
        out.push({
          transfers: n,
          concurrency,
          checked: s.checked,
          pass_ms: Math.round(ms),
          limit_ms: Math.round(limitMs),
          ratio_to_limit: round(ms / limitMs, 2),
          per_transfer_ms: round(ms / n, 3),
          rss_before_mb: round(rssBefore / 2 ** 20, 0),
          rss_peak_mb: round(peak / 2 ** 20, 0),
          heap_before_mb: round(heapBefore / 2 ** 20, 0),
          heap_peak_mb: round(heapPeak / 2 ** 20, 0),
          heap_after_gc_mb: round(heapAfterGc / 2 ** 20, 0),
          gc_forced: gcAvailable,
        })
        await db()("odeme_payment").where("session_id", "like", "payses_bench%").delete()
      }
      results.poller = out
    }

    async function initiate() {
      const provider = paymentProvider(getContainer(), CHECKOUT_PROVIDER)
      const call = (i: number) =>
        provider.initiatePayment({ amount: 250, currency_code: "try", data: { session_id: `payses_benchinit${String(i).padStart(8, "0")}` }, context: {} })
      for (let i = 0; i < 100; i++) await call(1_000_000 + i) // warm-up
      const times: number[] = []
      for (let i = 0; i < CFG.initiateCalls; i++) {
        const t0 = performance.now()
        await call(i)
        times.push(performance.now() - t0)
      }
      await db()("odeme_payment").where("session_id", "like", "payses_benchinit%").delete()
      results.initiate_payment = { provider: CHECKOUT_PROVIDER, calls: CFG.initiateCalls, ms: stats(times) }
    }

    it("measures", async () => {
      const container = getContainer()
      paymentProvider(container, REF_PROVIDER) // throws if the reference provider was not registered
      await env.emulator.control("POST", "/_control/reset")
      await env.emulator.control("POST", "/_control/config", { webhookUrl: `${env.backendUrl}/odeme/webhook` })
      const store = await seedStore(container, { providers: [CHECKOUT_PROVIDER, REF_PROVIDER] })

      const t = Date.now()
      log("time to paid: plugin webhook route")
      const plugin = await timeToPaid(store, CHECKOUT_PROVIDER, "/odeme/webhook")
      log("time to paid: core route with the reference provider")
      const core = await timeToPaid(store, REF_PROVIDER, "/hooks/payment/odeme-checkout_ref")
      results.time_to_paid = { plugin, core_reference: core, p50_ratio: round(plugin.ms.p50 / core.ms.p50, 3), p95_ratio: round(plugin.ms.p95 / core.ms.p95, 3) }
      await env.emulator.control("POST", "/_control/config", { webhookUrl: `${env.backendUrl}/odeme/webhook` })

      log("initiatePayment")
      await initiate()
      await webhookIngest(store)
      await poller()
      results.total_s = round((Date.now() - t) / 1000, 0)

      const dir = path.join(ROOT, "bench-results")
      fs.mkdirSync(dir, { recursive: true })
      fs.writeFileSync(path.join(dir, "results.json"), JSON.stringify(results, null, 2))
      log(`wrote ${path.join(dir, "results.json")}`)
    }, 900_000)
  },
})
