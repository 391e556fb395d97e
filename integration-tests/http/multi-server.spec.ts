/**
 * Project issue 5: the plugin in a real deployment shape — two HTTP server
 * processes and one worker process (MEDUSA_WORKER_MODE), sharing PostgreSQL
 * and Redis (event bus, workflow engine with the scheduled jobs, locking,
 * caching). Needs REDIS_URL (`.ci/run` sets it when Redis runs on the machine).
 */
import type { EmulatorProcess } from "../utils/emulator-process"
import { adminHeaders, cartOutcome, httpApi, type MedusaApp, type MedusaProcess } from "../utils/medusa-process"
import {
  approvedCardPayment,
  appWithEmulator,
  followReturn,
  paidOutcome,
  pendingTransferOrder,
  postWebhook,
  stopProcesses,
  waitFor,
} from "../utils/process-scenarios"

const CONSUMED = /Processing odeme\.notification\.received\b.*which has \d+ subscribers/
const PROCESSED = /medusa-payment-odeme: notification \S+ \(\w+\) for \S+ processed:/
const POLLER = /medusa-payment-odeme poller:/

const run = Boolean(process.env.REDIS_URL)
// Written directly: jest hides console output of a suite whose tests are all skipped.
if (!run) process.stdout.write("\nmulti-server test skipped: set REDIS_URL=redis://127.0.0.1:6379 to run it\n")

;(run ? describe : describe.skip)("two servers and a worker (Redis)", () => {
  jest.setTimeout(180_000)
  let emulator: EmulatorProcess
  let app: MedusaApp
  let serverA: MedusaProcess
  let serverB: MedusaProcess
  let worker: MedusaProcess

  beforeAll(async () => {
    ;({ emulator, app } = await appWithEmulator("multi", {
      // Every 3 s, so the test sees runs; enabled everywhere: only the worker may run it.
      ODEME_POLL_SCHEDULE: "*/3 * * * * *",
      // With the worker down, stored notifications are told after 6 s, not 3 minutes.
      ODEME_UNPROCESSED_AFTER_MINUTES: "0.1",
    }))
    ;[serverA, serverB, worker] = await Promise.all([
      app.start({ mode: "server", name: "multi-server-a" }),
      app.start({ mode: "server", name: "multi-server-b" }),
      app.start({ mode: "worker", name: "multi-worker" }),
    ])
    await emulator.control("POST", "/_control/config", { webhookUrl: `${serverA.url}/odeme/webhook`, webhookRetryDelaysMs: [500, 1000, 2000] })
  }, 240_000)

  afterAll(() => stopProcesses(app, emulator))

  const paid = (cartId: string) => paidOutcome(app, cartId, 30_000)

  it("a webhook taken by a server is processed by the worker", async () => {
    const card = await approvedCardPayment(app, emulator, serverA.url)
    const mark = worker.logs().length
    const res = await postWebhook(serverA.url, card.webhook)
    expect(res.status).toBe(200)
    await paid(card.cartId)
    // The event is consumed by the worker's Redis event bus, and confirmNotification ran there.
    await worker.waitForLog(CONSUMED, 10_000, mark)
    const line = await worker.waitForLog(new RegExp(`notification \\S+ \\(webhook\\) for ${card.sessionId} processed: paid`), 10_000)
    expect(line).toMatch(PROCESSED)
    for (const server of [serverA, serverB]) {
      expect(server.logs()).not.toMatch(CONSUMED)
      expect(server.logs()).not.toMatch(PROCESSED)
    }
    const [row] = await app.sql(`select state, outcome from odeme_notification where session_id = $1`, [card.sessionId])
    expect(row).toEqual({ state: "done", outcome: "paid" })
    expect(await cartOutcome(app, card.cartId)).toEqual(expect.objectContaining({ orders: 1, captures: 1 }))
  })

  it("the polling job runs on the worker only", async () => {
    await emulator.control("POST", "/_control/webhooks", { paused: true })
    const t = await pendingTransferOrder(app, emulator, serverB.url)
    await emulator.control("POST", `/_control/transfers/${t.uuid}/settle`, { result: "successful" })
    const mark = worker.logs().length
    await app.sql(`update odeme_payment set next_check_at = now() where session_id = $1`, [t.sessionId])
    await paid(t.cartId)
    await worker.waitForLog(/medusa-payment-odeme poller: checked [1-9]\d* \(paid 1/, 10_000, mark)
    // Several schedule ticks have passed on every process by now; none ran on a server.
    expect(serverA.logs()).not.toMatch(POLLER)
    expect(serverB.logs()).not.toMatch(POLLER)
    expect(await cartOutcome(app, t.cartId)).toEqual(expect.objectContaining({ orders: 1, captures: 1 }))
    expect((await app.sql(`select status from odeme_payment where session_id = $1`, [t.sessionId]))[0].status).toBe("paid")
  })

  it("the same webhook 10× at each server at once, plus the return redirect at both → one order, one capture", async () => {
    const card = await approvedCardPayment(app, emulator, serverA.url)
    const results = await Promise.all([
      ...Array.from({ length: 10 }, () => postWebhook(serverA.url, card.webhook)),
      ...Array.from({ length: 10 }, () => postWebhook(serverB.url, card.webhook)),
      followReturn(card.successUrl, serverA.url),
      followReturn(card.successUrl, serverB.url),
    ])
    expect(results.slice(0, 20).map((r) => r.status)).toEqual(Array(20).fill(200))
    expect(results.slice(20).map((r) => r.status)).toEqual([303, 303])
    await paid(card.cartId)
    // Let any straggler finish before counting.
    await waitFor(async () => {
      const rows = await app.sql(`select state from odeme_notification where session_id = $1`, [card.sessionId])
      return rows.every((r) => r.state === "done") ? rows : undefined
    }, 20_000)
    // 20 webhooks → one stored notification with 19 duplicates; the 2 returns → their own row(s).
    const rows = await app.sql(`select source, duplicate_count from odeme_notification where session_id = $1`, [card.sessionId])
    expect(rows.filter((r) => r.source === "webhook")).toEqual([{ source: "webhook", duplicate_count: 19 }])
    expect(rows.reduce((n, r) => n + r.duplicate_count + 1, 0)).toBe(22)
    expect(await cartOutcome(app, card.cartId)).toEqual(expect.objectContaining({ orders: 1, payments: 1, captures: 1 }))
    expect((await app.sql(`select status from odeme_payment where session_id = $1`, [card.sessionId]))[0].status).toBe("paid")
  })

  // Last: it stops the worker and starts another.
  it("with the worker stopped, a stored webhook is told by Settings and needs attention; with a worker again, paid once and the signal gone", async () => {
    const api = httpApi(serverA.url)
    const headers = { headers: await adminHeaders(app, serverA.url) }
    const processingCodes = async () =>
      ((await api.get("/admin/odeme/attention?limit=100", headers)).data.items as Array<{ kind: string; code: string }>)
        .filter((i) => i.kind === "processing")
        .map((i) => i.code)
    await worker.stop()
    const card = await approvedCardPayment(app, emulator, serverA.url)
    expect((await postWebhook(serverA.url, card.webhook)).status).toBe(200)
    // Stored, answered, and told while nothing processes it: both computed when the Admin reads them.
    await waitFor(async () => (await processingCodes()).includes("notifications_unprocessed"), 60_000, 1000)
    const settings = (await api.get("/admin/odeme/settings", headers)).data
    expect(settings.warnings).toContainEqual(
      expect.objectContaining({ code: "notifications_unprocessed", severity: "error", params: expect.objectContaining({ count: "1" }) })
    )
    expect(await cartOutcome(app, card.cartId)).toEqual(expect.objectContaining({ orders: 0, captures: 0 }))

    worker = await app.start({ mode: "worker", name: "multi-worker-again" })
    await paid(card.cartId)
    await waitFor(async () => !(await processingCodes()).length, 60_000, 1000)
    expect(await cartOutcome(app, card.cartId)).toEqual(expect.objectContaining({ orders: 1, payments: 1, captures: 1 }))
    const after = (await api.get("/admin/odeme/settings", headers)).data
    expect(after.warnings.map((w: { code: string }) => w.code)).not.toContain("notifications_unprocessed")
  })
})
