/**
 * `npm run bench` (scripts/bench.js runs this file with jest, outside `npm test`):
 * boots Medusa with the repository's test app plus the bench's references
 * (bench/app-config.ts) exactly like the HTTP tests (medusaIntegrationTestRunner
 * + the emulator process), measures each section, and writes
 * bench-results/results.json. Nothing here asserts a timing.
 */
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import fs from "node:fs"
import os from "node:os"
import path from "node:path"
import { useOdemeEnvironment } from "../integration-tests/utils/environment"
import { paymentProvider } from "../integration-tests/utils/inspect"
import { CHECKOUT_PROVIDER, seedStore } from "../integration-tests/utils/store"
import { addBenchReferences, REF_PROVIDER, ROOT } from "./app-config"
import { judgeGoals } from "./goals"
import type { BenchContext } from "./sections/context"
import { burst, webhookIngest } from "./sections/ingest"
import { pollerPasses } from "./sections/poller"
import { rushHour, SYSTEM_PROVIDER } from "./sections/rush-hour"
import { scale } from "./sections/scale"
import { timeToPaidBoth } from "./sections/time-to-paid"
import { workers } from "./sections/workers"
import { CFG, log, round, stats } from "./support"

// The emulator quiet: its request log would otherwise pass, line by line, through this process, the one being measured.
// The bench runs the poller's passes itself: no scheduled pass (1 January only) races the measured ones.
const env = useOdemeEnvironment({
  env: { ODEME_POLLER_ENABLED: "false", ODEME_POLL_SCHEDULE: "0 0 1 1 *", ODEME_STOREFRONT_URL: "http://localhost:8000" },
  emulatorArgs: ["--quiet"],
})

// Runs after useOdemeEnvironment's beforeAll (process.env points at the emulator) and before Medusa boots.
beforeAll(addBenchReferences)

/** Only the sections named in BENCH_ONLY (comma-separated), for development; all by default. */
const only = (process.env.BENCH_ONLY ?? "").split(",").filter(Boolean)
const wanted = (name: string) => !only.length || only.includes(name)

medusaIntegrationTestRunner({
  cwd: ROOT,
  testSuite: ({ api, getContainer }) => {
    const results: Record<string, any> = {
      machine: {
        cpus: os.cpus().length,
        cpu_model: os.cpus()[0]?.model,
        memory_gb: round(os.totalmem() / 2 ** 30, 1),
        node: process.version,
        platform: `${os.platform()} ${os.release()}`,
        date: new Date().toISOString(),
      },
      config: CFG,
    }

    async function initiate() {
      const provider = paymentProvider(getContainer(), CHECKOUT_PROVIDER)
      const call = (i: number) =>
        provider.initiatePayment({
          amount: 250,
          currency_code: "try",
          data: { session_id: `payses_benchinit${String(i).padStart(8, "0")}` },
          context: {},
        })
      for (let i = 0; i < 100; i++) await call(1_000_000 + i) // warm-up
      const times: number[] = []
      for (let i = 0; i < CFG.initiateCalls; i++) {
        const t0 = performance.now()
        await call(i)
        times.push(performance.now() - t0)
      }
      await getContainer().resolve(ContainerRegistrationKeys.PG_CONNECTION)("odeme_payment").where("session_id", "like", "payses_benchinit%").delete()
      return { provider: CHECKOUT_PROVIDER, calls: CFG.initiateCalls, ms: stats(times) }
    }

    it("measures", async () => {
      const container = getContainer()
      paymentProvider(container, REF_PROVIDER) // throws if the reference provider was not registered
      const ctx: BenchContext = {
        db: () => getContainer().resolve(ContainerRegistrationKeys.PG_CONNECTION),
        backendUrl: env.backendUrl,
        container: getContainer,
        api,
        emulator: env.emulator,
      }
      await env.emulator.control("POST", "/_control/reset")
      await env.emulator.control("POST", "/_control/config", { webhookUrl: `${env.backendUrl}/odeme/webhook` })
      const store = await seedStore(container, { providers: [CHECKOUT_PROVIDER, REF_PROVIDER, SYSTEM_PROVIDER] })
      const t = Date.now()

      // A section that fails is recorded and the others still run: one bad section must not cost a 15-minute run.
      const section = async (name: string, work: () => Promise<void>) => {
        if (!wanted(name)) return
        try {
          await work()
        } catch (err) {
          log(`${name}: FAILED: ${err instanceof Error ? err.stack : String(err)}`)
          results.errors = { ...(results.errors ?? {}), [name]: err instanceof Error ? err.message : String(err) }
        }
      }
      await section("paid", async () => {
        log("time to paid: plugin webhook route, then the core route with the reference provider")
        results.time_to_paid = await timeToPaidBoth(ctx, store, CHECKOUT_PROVIDER, REF_PROVIDER)
      })
      await section("rush", async () => void (results.rush_hour = await rushHour(ctx, store)))
      await section("initiate", async () => {
        log("initiatePayment")
        results.initiate_payment = await initiate()
      })
      await section("ingest", async () => void (results.webhook_ingest = await webhookIngest(ctx)))
      await section("burst", async () => void (results.burst = await burst(ctx)))
      await section("poller", async () => void (results.poller = await pollerPasses(ctx)))
      await section("workers", async () => {
        const w = await workers()
        if ("skipped" in w) {
          log(`workers: skipped: ${w.skipped}`)
          results.workers_skipped = w.skipped
        } else results.poller = [...(results.poller ?? []), ...w.rows]
      })
      // Last: it leaves millions of rows behind.
      await section("scale", async () => {
        const s = await scale(ctx)
        results.scale = s.rows
        results.explain = s.explain
      })
      results.goals = judgeGoals(results)
      results.total_s = round((Date.now() - t) / 1000, 0)

      const dir = path.join(ROOT, "bench-results")
      fs.mkdirSync(dir, { recursive: true })
      fs.writeFileSync(path.join(dir, "results.json"), JSON.stringify(results, null, 2))
      log(`wrote ${path.join(dir, "results.json")}`)
    }, 1_800_000)
  },
})
