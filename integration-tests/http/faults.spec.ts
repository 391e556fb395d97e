/**
 * Project issue 7: faults that need real processes — a crash between the
 * webhook's 200 and its processing, the database going away while a webhook
 * arrives, a storm of everything at once — and outages of the payment
 * service during initiate / authorize / verify / polling. One Medusa process
 * (shared mode; with Redis modules when REDIS_URL is set) on a fresh database
 * built from the fixture app; every case ends with assertions on PostgreSQL.
 */
import type { EmulatorProcess } from "../utils/emulator-process"
import { cartOutcome, httpApi, withAdminClient, type MedusaApp, type MedusaProcess } from "../utils/medusa-process"
import {
  approvedCardPayment,
  appWithEmulator,
  followReturn,
  paidOutcome,
  pendingTransferOrder,
  postWebhook,
  stopProcesses,
  transfersOf,
  waitFor,
} from "../utils/process-scenarios"
import { cartWithSession, completeCart, serviceOrderIdOf, TRANSFER_PROVIDER } from "../utils/store"

jest.setTimeout(180_000)

describe("faults with Medusa as a separate process", () => {
  let emulator: EmulatorProcess
  let app: MedusaApp
  let medusa: MedusaProcess

  const startMedusa = (port?: number) => app.start({ mode: "shared", name: port ? `faults-restarted-${port}` : "faults", port })

  beforeAll(async () => {
    ;({ emulator, app } = await appWithEmulator("faults", {
      ODEME_HTTP_TIMEOUT_MS: "2000",
      ODEME_HTTP_RETRIES: "1",
      // The poller (it drains the notification inbox too) every 2 s instead of every minute, to keep the test short.
      ODEME_POLL_SCHEDULE: "*/2 * * * * *",
    }))
    medusa = await startMedusa()
  }, 240_000)

  beforeEach(async () => {
    await emulator.control("DELETE", "/_control/faults")
    await emulator.control("POST", "/_control/webhooks", { paused: true })
  })

  afterAll(() => stopProcesses(app, emulator))

  const paid = (cartId: string, timeoutMs = 30_000) => paidOutcome(app, cartId, timeoutMs)
  const notification = async (sessionId: string) => (await app.sql(`select * from odeme_notification where session_id = $1`, [sessionId]))[0]
  const payment = async (sessionId: string) => (await app.sql(`select * from odeme_payment where session_id = $1`, [sessionId]))[0]

  it("crash after the webhook's 200, before processing finished → processed after the restart, one order", async () => {
    const card = await approvedCardPayment(app, emulator, medusa.url)
    await emulator.control("POST", "/_control/faults", { endpoint: "verify", mode: "slow", delayMs: 5000, count: 1 })

    const res = await postWebhook(medusa.url, card.webhook)
    expect(res.status).toBe(200)
    // Stored and claimed: processing is in the verify call, which takes 5 s.
    await waitFor(async () => (await notification(card.sessionId))?.state === "processing", 4000, 50)
    medusa.kill("SIGKILL")
    await medusa.exited
    expect(await cartOutcome(app, card.cartId)).toEqual(expect.objectContaining({ orders: 0, captures: 0 }))
    const left = await notification(card.sessionId)
    expect(left).toEqual(expect.objectContaining({ state: "processing", attempts: 1 }))

    // The crashed process held a 120 s lease (OdemeModuleService.claimNotification). Time travel to its end
    // rather than waiting two minutes; see the report for a configurable lease.
    await app.sql(`update odeme_notification set locked_until = now() - interval '1 second' where id = $1`, [left.id])

    medusa = await startMedusa(medusa.port)
    const outcome = await paid(card.cartId)
    expect(outcome).toEqual(expect.objectContaining({ orders: 1, payments: 1, captures: 1 }))
    await waitFor(async () => (await notification(card.sessionId))?.state === "done")
    const done = await notification(card.sessionId)
    expect(done).toEqual(expect.objectContaining({ state: "done", outcome: "paid", attempts: 2, duplicate_count: 0 }))
    expect((await payment(card.sessionId)).status).toBe("paid")
  })

  it("database unavailable while a webhook arrives → 503, nothing lost; the redelivery is stored and processed once", async () => {
    const card = await approvedCardPayment(app, emulator, medusa.url)
    const db = app.database.name
    await withAdminClient(async (c) => {
      await c.query(`alter database "${db}" allow_connections false`)
      await c.query(`select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()`, [db])
    })
    let refused: Response
    const t0 = Date.now()
    try {
      refused = await postWebhook(medusa.url, card.webhook, 20_000)
    } finally {
      await withAdminClient((c) => c.query(`alter database "${db}" allow_connections true`))
    }
    // Answered within the route's bound (5 s), well inside a delivery timeout, and not 200.
    expect(refused.status).toBe(503)
    expect(Date.now() - t0).toBeLessThan(10_000)
    expect((await refused.json()).message).toMatch(/could not be stored; please deliver it again/)

    // The service delivers again (its retry), once the database is back.
    const again = await waitFor(
      async () => {
        const r = await postWebhook(medusa.url, card.webhook)
        return r.status === 200 ? r : undefined
      },
      30_000,
      500
    )
    expect(again.status).toBe(200)
    expect(await paid(card.cartId)).toEqual(expect.objectContaining({ orders: 1, payments: 1, captures: 1 }))
    const row = await waitFor(async () => {
      const n = await notification(card.sessionId)
      return n?.state === "done" ? n : undefined
    })
    // The refused delivery's write may still land once the database is back (Medusa's pool keeps
    // trying): then the redelivery is its duplicate. Either way: one row, processed once.
    expect(row.outcome).toBe("paid")
    expect([0, 1]).toContain(row.duplicate_count)
    expect(await app.sql(`select id from odeme_notification where session_id = $1`, [card.sessionId])).toHaveLength(1)
    expect(medusa.logs()).toMatch(/medusa-payment-odeme: could not store a webhook/)
  })

  it("storm: 50 copies of the webhook + the return redirect + poller runs + the storefront's cart.complete → one order, one capture", async () => {
    const card = await approvedCardPayment(app, emulator, medusa.url)
    const api = httpApi(medusa.url)
    // Every notification row due, so each poller run (every 2 s) also works the inbox during the storm.
    const storm = await Promise.all([
      ...Array.from({ length: 50 }, () => postWebhook(medusa.url, card.webhook).then((r) => r.status)),
      followReturn(card.successUrl).then((r) => r.status),
      (async () => {
        for (let i = 0; i < 10; i++) {
          await app.sql(`update odeme_notification set next_attempt_at = now() where session_id = $1 and state in ('received', 'retry')`, [
            card.sessionId,
          ])
          await new Promise((r) => setTimeout(r, 300))
        }
        return 0
      })(),
      (async () => {
        // The storefront: complete, and on 409 / "not confirmed yet" try again, as the README says.
        const r = await waitFor(
          async () => {
            const res = await completeCart(api, app.seed, card.cartId)
            return res.status === 200 && res.data.type === "order" ? res : undefined
          },
          60_000,
          500
        ).catch(() => undefined)
        return r ? (r.data.order.id as string) : "no order"
      })(),
    ])
    expect(storm.slice(0, 50)).toEqual(Array(50).fill(200))
    expect(storm[50]).toBe(303)
    const orderId = storm[52]
    const outcome = await paid(card.cartId)
    expect(outcome).toEqual(expect.objectContaining({ orders: 1, payments: 1, captures: 1 }))
    expect(outcome.orderIds).toEqual([orderId])
    await waitFor(async () => (await notification(card.sessionId))?.state === "done")
    const rows = await app.sql(`select source, duplicate_count from odeme_notification where session_id = $1`, [card.sessionId])
    expect(rows.filter((r) => r.source === "webhook")).toEqual([{ source: "webhook", duplicate_count: 49 }])
    expect(rows.reduce((n, r) => n + r.duplicate_count + 1, 0)).toBe(51) // + the return
    expect((await payment(card.sessionId)).status).toBe("paid")
  })

  describe("payment service outages", () => {
    it("initiate: bank list down (500) → the session is refused, nothing stored; back → it works", async () => {
      const api = httpApi(medusa.url)
      await emulator.control("POST", "/_control/faults", { endpoint: "*", mode: "error500", count: 20 })
      const { cart, response } = await cartWithSession(api, app.seed, TRANSFER_PROVIDER, { bank_id: 1, customer_name: "Ayşe Yılmaz" })
      expect(response.status).toBeGreaterThanOrEqual(400)
      const sessions = await app.sql(
        `select ps.id from payment_session ps join cart_payment_collection cpc on cpc.payment_collection_id = ps.payment_collection_id where cpc.cart_id = $1 and ps.deleted_at is null`,
        [cart.id]
      )
      expect(sessions).toHaveLength(0)
      await emulator.control("DELETE", "/_control/faults")
      const { data: banks } = await api.get("/store/odeme/banks", app.seed.headers)
      const ok = await api.post(
        `/store/payment-collections/${(await app.sql(`select payment_collection_id from cart_payment_collection where cart_id = $1`, [cart.id]))[0].payment_collection_id}/payment-sessions`,
        { provider_id: TRANSFER_PROVIDER, data: { bank_id: banks.bank_groups[0].accounts[0].bank_id, customer_name: "Ayşe Yılmaz" } },
        app.seed.headers
      )
      expect(ok.status).toBe(200)
    })

    it("authorize: transfer creation hangs past the timeout → not paid, not failed, never created twice", async () => {
      const api = httpApi(medusa.url)
      const { data: banks } = await api.get("/store/odeme/banks", app.seed.headers)
      const { cart, session } = await cartWithSession(api, app.seed, TRANSFER_PROVIDER, {
        bank_id: banks.bank_groups[0].accounts[0].bank_id,
        customer_name: "Ayşe Yılmaz",
      })
      await emulator.control("POST", "/_control/faults", { endpoint: "create_transfer", mode: "hang", count: 1 })
      const first = await completeCart(api, app.seed, cart.id)
      expect(first.data.type).toBe("cart")
      expect(first.data.error.message).toMatch(/did not answer clearly while creating the bank transfer; it may already exist/)
      await emulator.control("DELETE", "/_control/faults")
      const second = await completeCart(api, app.seed, cart.id)
      expect(second.data.type).toBe("cart")
      const requests = (await emulator.control("GET", "/_control/requests?path=/api/pay/bank_transfer")).result.filter(
        (r: any) => r.method === "POST" && r.body?.order_id === serviceOrderIdOf(session)
      )
      expect(requests).toHaveLength(1) // the one that hung; never repeated
      expect(await transfersOf(emulator, serviceOrderIdOf(session))).toHaveLength(0)
      expect(await payment(session.id)).toEqual(expect.objectContaining({ creation_state: "unknown", status: "unknown", review_code: null }))
      expect(await cartOutcome(app, cart.id)).toEqual(expect.objectContaining({ orders: 0, payments: 0 }))
    })

    it("authorize: transfer creation refused (400) → may be tried again: one transfer, one order", async () => {
      const api = httpApi(medusa.url)
      const { data: banks } = await api.get("/store/odeme/banks", app.seed.headers)
      const { cart, session } = await cartWithSession(api, app.seed, TRANSFER_PROVIDER, {
        bank_id: banks.bank_groups[0].accounts[0].bank_id,
        customer_name: "Ayşe Yılmaz",
        sandbox_result: "pending",
      })
      // A readable refusal means nothing was created (a 5xx would be an unknown outcome: see suites/money-integrity).
      await emulator.control("POST", "/_control/faults", { endpoint: "create_transfer", mode: "refuse400", count: 1 })
      const first = await completeCart(api, app.seed, cart.id)
      expect(first.status).toBe(400)
      expect((await payment(session.id)).status).toBe("pending")
      const second = await completeCart(api, app.seed, cart.id)
      expect(second.data.type).toBe("order")
      expect(await transfersOf(emulator, serviceOrderIdOf(session))).toHaveLength(1)
      expect(await cartOutcome(app, cart.id)).toEqual(expect.objectContaining({ orders: 1, captures: 0 }))
      expect((await payment(session.id)).status).toBe("awaiting_transfer")
    })

    it("verify: down (500), then slow → the notification waits in the inbox, then one order and one capture", async () => {
      const card = await approvedCardPayment(app, emulator, medusa.url)
      await emulator.control("POST", "/_control/faults", { endpoint: "verify", mode: "error500", count: 4 })
      await emulator.control("POST", "/_control/faults", { endpoint: "verify", mode: "slow", delayMs: 1500, count: 1 })
      expect((await postWebhook(medusa.url, card.webhook)).status).toBe(200)
      const waiting = await waitFor(
        async () => {
          const n = await notification(card.sessionId)
          return n?.state === "retry" ? n : undefined
        },
        10_000,
        100
      )
      expect(waiting.last_error).toMatch(/verify failed/)
      expect((await payment(card.sessionId)).status).toBe("pending")
      expect(await cartOutcome(app, card.cartId)).toEqual(expect.objectContaining({ orders: 0, payments: 0 }))
      const outcome = await paid(card.cartId, 60_000)
      expect(outcome).toEqual(expect.objectContaining({ orders: 1, payments: 1, captures: 1 }))
      const done = await waitFor(async () => {
        const n = await notification(card.sessionId)
        return n?.state === "done" ? n : undefined
      })
      expect(done.outcome).toBe("paid")
      expect(done.attempts).toBeGreaterThanOrEqual(2)
    })

    it("polling: the status call hangs past the timeout → nothing changes; back → captured once by the job", async () => {
      const t = await pendingTransferOrder(app, emulator, medusa.url)
      await emulator.control("POST", `/_control/transfers/${t.uuid}/settle`, { result: "successful" })
      // Only this transfer is due (earlier cases left one awaiting): the job's run is about it alone.
      await app.sql(`update odeme_payment set next_check_at = now() + interval '1 hour' where session_id <> $1`, [t.sessionId])
      await emulator.control("POST", "/_control/faults", { endpoint: "uuid", mode: "hang", count: 2 })
      const mark = medusa.logs().length
      await app.sql(`update odeme_payment set next_check_at = now() where session_id = $1`, [t.sessionId])
      await medusa.waitForLog(/medusa-payment-odeme poller: checked 1 \(paid 0, failed 0, expired 0, errors 1\)/, 20_000, mark)
      const after = await payment(t.sessionId)
      expect(after.status).toBe("awaiting_transfer")
      expect(new Date(after.next_check_at).getTime()).toBeGreaterThan(Date.now())
      expect(await cartOutcome(app, t.cartId)).toEqual(expect.objectContaining({ orders: 1, captures: 0 }))

      await app.sql(`update odeme_payment set next_check_at = now() where session_id = $1`, [t.sessionId])
      expect(await paid(t.cartId)).toEqual(expect.objectContaining({ orders: 1, payments: 1, captures: 1 }))
      expect((await payment(t.sessionId)).status).toBe("paid")
      expect(await transfersOf(emulator, t.reference)).toHaveLength(1)
    })
  })
})
