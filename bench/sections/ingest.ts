import { randomUUID } from "node:crypto"
import { CFG, foldRuns, log, medianOfRuns, round, settle, sleep } from "../support"
import { burstLoad, insertCheckoutPayments, load, waitForDrain, webhookBody, type BenchContext } from "./context"

const ROUTES = [
  { key: "plugin", name: "plugin /odeme/webhook, unique notifications", path: "/odeme/webhook", unique: true },
  { key: "plugin_duplicates", name: "plugin /odeme/webhook, duplicates of one", path: "/odeme/webhook", unique: false },
  { key: "insert_limit", name: "reference /bench/insert, one durable INSERT", path: "/bench/insert", unique: true },
  { key: "core", name: "core /hooks/payment/odeme-checkout_odeme, stores nothing", path: "/hooks/payment/odeme-checkout_odeme", unique: true },
] as const

/** The bench's notifications are refused by verify and retried later: close them so they do not load later sections. */
export async function closeBenchNotifications(db: any): Promise<void> {
  await db.raw(
    `update odeme_notification set state = 'done', next_attempt_at = null, locked_until = null where session_id like 'payses_bench%' and state <> 'done'`
  )
}

/**
 * Webhook ingest at a steady load: each route, each connection count,
 * CFG.runs runs of CFG.ingestDurationS seconds (median, min, max), side by
 * side in one app. The routes take turns (a round runs each once), so a slow
 * moment of a shared machine falls on all of them, not on one route's runs.
 * Notifications go to 50 sessions, as a shop's do. Each run starts on a
 * quiet process (settle): the core route's events run 5 s late, and a run
 * must not pay for the one before it.
 */
export async function webhookIngest(ctx: BenchContext) {
  const only = process.env.BENCH_INGEST_ROUTES?.split(",")
  const routes = ROUTES.filter((r) => !only || only.includes(r.key))
  const db = ctx.db()
  const sessions = await insertCheckoutPayments(db, "benchingest", 50)
  await db.raw(`create table if not exists bench_ingest_ref (like odeme_notification including all)`)
  const rows: any[] = []
  for (const connections of CFG.ingestConnections) {
    const runs = new Map<string, any[]>(routes.map((r) => [r.key, []]))
    for (let run = 0; run < CFG.runs; run++) {
      for (const route of routes) {
        log(`ingest: ${route.name}, ${connections} connections, run ${run + 1} of ${CFG.runs}, ${CFG.ingestDurationS} s`)
        runs.get(route.key)!.push(await ingestRun(ctx, db, route, connections, sessions))
      }
    }
    for (const route of routes) rows.push({ route: route.name, key: route.key, connections, ...foldRuns(runs.get(route.key)!) })
  }
  for (const connections of CFG.ingestConnections) {
    const at = (key: string) => rows.find((r) => r.connections === connections && r.key === key)
    for (const r of rows.filter((x) => x.connections === connections)) {
      if (at("insert_limit")) r.rps_ratio_vs_insert_limit = round(r.rps / at("insert_limit").rps, 3)
      if (at("core")) {
        r.rps_ratio_vs_core = round(r.rps / at("core").rps, 3)
        r.p99_ratio_vs_core = round(r.p99 / at("core").p99, 2)
      }
    }
  }
  return rows
}

async function ingestRun(ctx: BenchContext, db: any, route: (typeof ROUTES)[number], connections: number, sessions: string[]) {
  const table = route.key === "insert_limit" ? "bench_ingest_ref" : "odeme_notification"
  const count = async () => (await db.raw(`select count(*)::int as n from ${table}`)).rows[0].n as number
  const before = await count()
  await settle()
  const r = await load({
    url: ctx.backendUrl + route.path,
    connections,
    durationS: CFG.ingestDurationS,
    body: webhookBody(sessions[0], randomUUID()),
    unique: route.unique,
    sessions: route.unique ? sessions : undefined,
  })
  const stored = (await count()) - before
  // Background work of one run must not slow the next: the plugin's queue drains, the core route's events wait 5 s.
  const drain = route.key.startsWith("plugin") ? await waitForDrain(db) : (await sleep(route.key === "core" ? 6_000 : 500), 0)
  await closeBenchNotifications(db)
  return {
    rps: round(r.rps, 1),
    p50: r.p50,
    p99: r.p99,
    non2xx: r.non2xx + r.errors + r.timeouts,
    requests: r.requests,
    rows_stored: stored,
    backlog_drain_s: drain,
  }
}

/**
 * A burst as a payment service sends after an outage: `size` new
 * notifications at once, each for its own session, once per size. Then
 * checks that each was stored once and processed once. Each run also sends
 * the same burst to Medusa's core hook route (which stores nothing): its p99
 * is what this machine's Medusa answers a burst in at best. Each burst
 * starts on a quiet process: the core burst's events, which Medusa runs 5 s
 * later, fell on the next plugin burst (2.5–3 s of work left in one run).
 */
export async function burst(ctx: BenchContext) {
  const db = ctx.db()
  const out: any[] = []
  for (const size of CFG.burstSizes) {
    log(`burst: ${size} notifications at once`)
    const figures = await medianOfRuns(async (run) => {
      const sessions = await insertCheckoutPayments(db, `benchburst${size}r${run}x`, size)
      const quiet = await settle()
      log(`burst: plugin route after ${quiet.waited_ms} ms of settling (busy ${quiet.busy})`)
      const t0 = Date.now()
      const r = await burstLoad({ url: `${ctx.backendUrl}/odeme/webhook`, amount: size, body: webhookBody(sessions[0], ""), sessions })
      const drain = round((Date.now() - t0) / 1000, 1) + (await waitForDrain(db))
      const [c] = (
        await db.raw(
          `select count(*)::int as stored, count(*) filter (where duplicate_count = 0)::int as stored_once,
             count(*) filter (where state = 'done' and attempts = 1)::int as processed_once
           from odeme_notification where session_id = any(?)`,
          [sessions]
        )
      ).rows
      await closeBenchNotifications(db)
      const coreQuiet = await settle()
      log(`burst: core route after ${coreQuiet.waited_ms} ms of settling (busy ${coreQuiet.busy})`)
      const core = await burstLoad({
        url: `${ctx.backendUrl}/hooks/payment/odeme-checkout_odeme`,
        amount: size,
        body: webhookBody(sessions[0], ""),
        sessions,
      })
      await sleep(6_000) // the core route's events wait 5 s before they run
      return {
        requests: r.requests,
        non2xx: r.non2xx + r.errors + r.timeouts,
        p50: r.p50,
        p99: r.p99,
        max: r.max,
        stored: c.stored,
        stored_once: c.stored_once,
        processed_once: c.processed_once,
        drain_s: round(drain, 1),
        core_p50: core.p50,
        core_p99: core.p99,
        core_non2xx: core.non2xx + core.errors + core.timeouts,
        p99_ratio_vs_core: round(r.p99 / core.p99, 2),
      }
    })
    out.push({ concurrent: size, ...figures })
  }
  return out
}
