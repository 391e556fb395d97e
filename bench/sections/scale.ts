import { randomUUID } from "node:crypto"
import { insertPendingTransfers } from "../../integration-tests/utils/bulk-transfers"
import { storeRecord } from "../../src/modules/odeme/rows"
import { CLAIM_SQL, STORE_SQL } from "../../src/modules/odeme/service"
import { CFG, log, median, medianOfRuns, round } from "../support"
import { closeBenchNotifications } from "./ingest"
import { insertCheckoutPayments, load, waitForDrain, webhookBody, type BenchContext } from "./context"

const CLAIM_SAMPLES = 15

/**
 * Cost as the store grows: ingest p50 and the poller's claim query on the
 * tables as they are, then again with CFG.scaleRows finished payments and as
 * many finished notifications (generate_series), with EXPLAIN plans of both
 * statements on the grown tables. Runs last: the rows stay.
 */
export async function scale(ctx: BenchContext) {
  const db = ctx.db()
  const sessions = await insertCheckoutPayments(db, "benchscale", 50)
  await insertPendingTransfers(db, 1000, "benchscaledue")
  const measure = async (label: string) => {
    log(`scale: ${label}`)
    const ingest = await medianOfRuns(async () => {
      const r = await load({
        url: `${ctx.backendUrl}/odeme/webhook`,
        connections: 10,
        durationS: CFG.ingestDurationS,
        body: webhookBody(sessions[0], randomUUID()),
        unique: true,
        sessions,
      })
      await waitForDrain(db)
      await closeBenchNotifications(db)
      return { p50: r.p50, rps: r.rps }
    })
    const claims: number[] = []
    for (let i = 0; i < CLAIM_SAMPLES; i++) {
      await dueAgain(db)
      const t0 = performance.now()
      await ctx.container().resolve("odeme").claimDueTransfers(100, 120)
      claims.push(performance.now() - t0)
    }
    return { ingest_p50_ms: ingest.p50, ingest_rps: ingest.rps, claim_ms: round(median(claims), 2) }
  }

  const empty = await measure("tables as they are")
  log(`scale: inserting ${CFG.scaleRows} finished payments and ${CFG.scaleRows} finished notifications`)
  const t0 = Date.now()
  await db.raw(
    `insert into odeme_payment (id, session_id, provider, flow, mode, amount, currency, status, creation_state, service_uuid, version, created_at, updated_at)
     select 'odpay_hist' || g, 'payses_hist' || g, 'odeme-transfer', 'transfer_api', 'sandbox', '10.00', 'TRY', 'paid', 'created', md5(g::text), 1,
       now() - make_interval(secs => g), now() - make_interval(secs => g)
     from generate_series(1, ?::int) g on conflict do nothing`,
    [CFG.scaleRows]
  )
  await db.raw(
    `insert into odeme_notification (id, source, dedupe_key, session_id, service_uuid, status, type, payload, state, attempts, outcome, processed_at, created_at, updated_at)
     select 'odntf_hist' || g, 'webhook', md5('hist' || g), 'payses_hist' || g, md5(g::text), 'successful', 'credit_card', '{"amount":"10.00"}'::jsonb,
       'done', 1, 'paid', now() - make_interval(secs => g), now() - make_interval(secs => g), now() - make_interval(secs => g)
     from generate_series(1, ?::int) g on conflict do nothing`,
    [CFG.scaleRows]
  )
  const insertS = round((Date.now() - t0) / 1000, 1)
  // A store's old rows were vacuumed and written out long ago: the autovacuum and checkpoint that
  // 2,000,000 fresh rows set off would otherwise run during the measurement and be counted as growth.
  await db.raw(`vacuum (analyze) odeme_payment, odeme_notification`)
  await db.raw(`checkpoint`).catch((err: Error) => log(`scale: no checkpoint (${err.message}); figures may include one`))
  const grown = await measure(`${CFG.scaleRows} rows each`)
  const explain = await plans(db, sessions[0])
  return {
    rows: [
      { rows: 0, ...empty, ingest_p50_ratio_vs_empty: 1, claim_ms_ratio_vs_empty: 1 },
      {
        rows: CFG.scaleRows,
        ...grown,
        ingest_p50_ratio_vs_empty: round(grown.ingest_p50_ms / Math.max(empty.ingest_p50_ms, 1), 2),
        claim_ms_ratio_vs_empty: round(grown.claim_ms / empty.claim_ms, 2),
        insert_s: insertS,
      },
    ],
    explain,
  }
}

/** The 1,000 transfers due again and unclaimed, as when their next check comes (a check ends the lease). */
function dueAgain(db: any) {
  return db.raw(
    `update odeme_payment set next_check_at = now() - interval '1 second', claimed_until = null where session_id like 'payses_benchscaledue%'`
  )
}

/** EXPLAIN ANALYZE of the claim and the ingest statement, inside a transaction that is rolled back. */
async function plans(db: any, sessionId: string) {
  const out: Record<string, string> = {}
  const explain = async (name: string, sql: string, bindings: unknown[]) => {
    const trx = await db.transaction()
    try {
      const { rows } = await trx.raw(`explain (analyze, buffers, costs off) ${sql}`, bindings)
      out[name] = rows.map((r: any) => r["QUERY PLAN"]).join("\n")
    } finally {
      await trx.rollback()
    }
  }
  await dueAgain(db)
  await explain("claim", CLAIM_SQL, [120, 100])
  // The intake's own statement (one webhook's row), as the route sends it.
  const row = {
    source: "webhook" as const,
    dedupe_key: `c:${randomUUID()}`,
    session_id: sessionId,
    service_uuid: randomUUID(),
    status: "successful",
    type: "credit_card",
    payload: {},
    raw_body: null,
  }
  await explain("ingest", STORE_SQL, [JSON.stringify([storeRecord(row, 1)])])
  await explain(
    "due_notifications",
    `select id from odeme_notification where deleted_at is null and state in ('received', 'retry', 'processing')
       and ((state in ('received', 'retry') and (next_attempt_at is null or next_attempt_at <= now())) or (state = 'processing' and locked_until < now()))
     order by created_at asc limit 100`,
    []
  )
  return out
}
