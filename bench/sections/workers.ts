import { startEmulatorProcess } from "../../integration-tests/utils/emulator-process"
import { APP_DIR, prepareMedusaApp, type MedusaApp } from "../../integration-tests/utils/medusa-process"
import fs from "node:fs"
import path from "node:path"
import { CFG, log, medianOfRuns, round, sleep } from "../support"

const UUID_PATH = "/api/pay/bank_transfer/uuid/"

type Emulator = { control(m: string, p: string, b?: unknown): Promise<any> }

/** The fixture app passes these through to the plugin's options only if its medusa-config reads them. */
function fixtureReads(name: string): boolean {
  return fs.readFileSync(path.join(APP_DIR, "medusa-config.ts"), "utf8").includes(name)
}

/**
 * Medusa as separate processes on Redis (a server, then one and two workers,
 * integration-tests/utils/medusa-process.ts): a pass over
 * CFG.workerTransfers due transfers, scheduled by the job every second and
 * run by the workers that take its offers. The pass is timed from its first
 * check to its last (the checks' own times, `last_checked_at`, plus the one
 * answer's latency before the first); the time from the rows becoming due to
 * the last one checked, which adds the wait for the job's next second and
 * the offer's trip through Redis, is kept beside it. Each transfer's checks
 * are counted by the emulator (its per-path count, which unlike its request
 * log keeps them all).
 */
export async function workers() {
  if (!process.env.REDIS_URL) return { skipped: "REDIS_URL is not set (e.g. REDIS_URL=redis://127.0.0.1:6379): the several-workers part needs Redis" }
  const n = CFG.workerTransfers
  const concurrency = fixtureReads("ODEME_POLL_CONCURRENCY") ? 20 : 5
  const maxPerRun = fixtureReads("ODEME_POLL_MAX_PER_RUN") ? n : 500
  const emulator = await startEmulatorProcess({ args: ["--quiet"] })
  let app: MedusaApp | undefined
  try {
    app = await prepareMedusaApp("bench_workers", {
      env: {
        ODEME_BASE_URL: emulator.url,
        ODEME_API_KEY: emulator.apiKey,
        ODEME_API_ID: String(emulator.apiId),
        ODEME_POLL_SCHEDULE: "* * * * * *",
        ODEME_POLL_CONCURRENCY: String(concurrency),
        ODEME_POLL_MAX_PER_RUN: String(maxPerRun),
        LOG_LEVEL: "warn",
      },
      log,
    })
    await app.start({ mode: "server", name: "bench-server" })
    const rows: any[] = []
    for (const count of [1, 2]) {
      await app.start({ mode: "worker", name: `bench-worker-${count}` })
      log(`workers: ${n} due transfers, ${count} worker(s), ${CFG.runs} runs`)
      const figures = await medianOfRuns(() => onePass(app!, emulator, n))
      // Each worker keeps `concurrency` checks in flight: two together are limited by twice as many.
      const limitMs = (n * CFG.pollerDelayMs) / (concurrency * count)
      rows.push({
        transfers: n,
        concurrency,
        workers: count,
        where: "Medusa processes on Redis, job every second",
        max_per_pass: maxPerRun,
        limit_ms: Math.round(limitMs),
        ...figures,
        ratio_to_limit: round(figures.pass_ms / limitMs, 2),
      })
    }
    rows[1].ratio_vs_single_worker = round(rows[1].pass_ms / rows[0].pass_ms, 2)
    rows[1].due_to_done_ratio_vs_single_worker = round(rows[1].due_to_done_ms / rows[0].due_to_done_ms, 2)
    return { rows }
  } finally {
    await app?.close()
    await emulator.stop()
  }
}

async function onePass(app: MedusaApp, emulator: Emulator, n: number) {
  await app.sql(`delete from odeme_payment where session_id like 'payses_benchwk%'`)
  // Transfers the emulator holds, so each check is the ordinary "still waiting" answer.
  const orders = Array.from({ length: n }, (_, i) => `payses_benchwk${i + 1}`)
  const { result } = await emulator.control("POST", "/_control/transfers/bulk", { orders })
  await app.sql(
    `insert into odeme_payment (id, session_id, provider, flow, mode, amount, currency, status, creation_state, service_uuid, next_check_at, created_at)
     select 'odpay_benchwk' || g, 'payses_benchwk' || g, 'odeme-transfer', 'transfer_api', 'sandbox', '10.00', 'TRY', 'awaiting_transfer', 'created',
       ($2::text[])[g], 'infinity', now() - make_interval(secs => g)
     from generate_series(1, $1::int) g`,
    [n, result.map((t: { uuid: string }) => t.uuid)]
  )
  await emulator.control("DELETE", "/_control/faults")
  await emulator.control("POST", "/_control/faults", { endpoint: "uuid", mode: "slow", delayMs: CFG.pollerDelayMs, count: n })
  const before: Record<string, number> = (await emulator.control("GET", `/_control/requests/counts?path=${UUID_PATH}`)).result
  const t0 = Date.now()
  await app.sql(`update odeme_payment set next_check_at = now() where session_id like 'payses_benchwk%'`)
  for (const deadline = t0 + 600_000; Date.now() < deadline; await sleep(100)) {
    const [{ left }] = await app.sql(
      `select count(*)::int as left from odeme_payment where session_id like 'payses_benchwk%' and (last_checked_at is null or last_checked_at < to_timestamp($1 / 1000.0))`,
      [t0]
    )
    if (left === 0) break
  }
  const dueToDoneMs = Date.now() - t0
  const [{ span_ms }] = await app.sql(
    `select (extract(epoch from max(last_checked_at) - min(last_checked_at)) * 1000)::float8 as span_ms from odeme_payment where session_id like 'payses_benchwk%'`
  )
  const passMs = Math.round(span_ms + CFG.pollerDelayMs)
  await emulator.control("DELETE", "/_control/faults")
  const after: Record<string, number> = (await emulator.control("GET", `/_control/requests/counts?path=${UUID_PATH}`)).result
  const checks = orders.map((_, i) => (after[UUID_PATH + result[i].uuid] ?? 0) - (before[UUID_PATH + result[i].uuid] ?? 0)).filter((c) => c > 0)
  return {
    pass_ms: passMs,
    due_to_done_ms: dueToDoneMs,
    checked: checks.length,
    checked_once: checks.filter((c) => c === 1).length,
    checked_twice_or_more: checks.filter((c) => c > 1).length,
  }
}
