import { odemeModuleTests } from "./module-runner"
import type { NotificationInput } from "../types"

jest.setTimeout(60_000)

/**
 * Issue 41 in the module's SQL: references this store never made are counted in the inbox's one statement; a
 * delivery nothing proved is a turn of its session's lane (newest first, a share for the oldest); notifications
 * nobody processes, or that wait behind forged copies, and a poller that stopped are items when Admin reads.
 */
odemeModuleTests(({ service }) => {
  const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000)
  const pay = (session_id: string, extra: Record<string, unknown> = {}) =>
    service.createOdemePayments({ session_id, provider: "odeme-checkout", mode: "sandbox", amount: "5.00", currency: "TRY", ...extra })
  const webhook = (session_id: string, key: string, extra: Partial<NotificationInput> = {}): NotificationInput => ({
    source: "webhook",
    dedupe_key: key,
    session_id,
    service_uuid: `u-${key}`,
    status: "successful",
    type: null,
    payload: { hash: "h" },
    raw_body: null,
    ...extra,
  })
  const processing = async () =>
    (await service.listAttention({ limit: 100, offset: 0, kinds: ["processing"] })).rows
      .map((r) => `${r.code}:${r.session_id ?? "-"}:${r.count ?? "-"}`)
      .sort()

  describe("notifications for references this store never made", () => {
    it("are answered as not stored, counted with their copies, and the last few kept, in the inbox's own statement", async () => {
      await pay("payses_known")
      const answers = await Promise.all([
        service.storeNotification(webhook("payses_known", "key:k1")),
        ...Array.from({ length: 7 }, (_, i) => service.storeNotification(webhook(`payses_stray${i}`, `key:s${i}`))),
      ])
      expect(answers[0]).toEqual(expect.objectContaining({ duplicate: false }))
      expect(answers.slice(1)).toEqual(Array(7).fill(null))
      // A copy of one of them counts too.
      expect(await service.storeNotification(webhook("payses_stray0", "key:s0"))).toBeNull()
      const strays = await service.strayNotifications()
      expect(strays.count).toBe(8)
      expect(strays.last_at).toBeInstanceOf(Date)
      expect(strays.recent).toHaveLength(5)
      expect(strays.recent[0]).toEqual({ order_id: "payses_stray0", status: "successful", at: expect.any(String) })
      // Nothing of them in the inbox.
      expect(await service.listOdemeNotifications({ session_id: answers.map((_, i) => `payses_stray${i}`) })).toEqual([])
    })
  })

  describe("a delivery nothing proved is a turn of its session's lane", () => {
    it("takes the newest due unproven row; the oldest on its share; a proven row itself", async () => {
      await pay("payses_lane")
      const rows: string[] = []
      for (let i = 0; i < 5; i++) {
        const stored = await service.storeNotification(webhook("payses_lane", `key:l${i}`))
        await service.updateOdemeNotifications({ id: stored!.row.id, created_at: minutesAgo(10 - i) } as never)
        rows.push(stored!.row.id)
      }
      const proven = await service.storeNotification(webhook("payses_lane", "key:lp", { trusted: true }))
      // Asked for the oldest row, the lane hands out the newest unproven one.
      expect(await service.laneOf(rows[0], 60)).toBe("newest")
      expect((await service.claimNotification(rows[0], 60, "newest"))!.id).toBe(rows[4])
      expect((await service.claimNotification(rows[0], 60, "newest"))!.id).toBe(rows[3])
      // Every fourth verify of the session's window goes to the oldest.
      await service.updateOdemePayments({ selector: { session_id: "payses_lane" }, data: { verify_calls: 3, verify_window_started_at: new Date() } })
      expect(await service.laneOf(rows[2], 60)).toBe("oldest")
      expect((await service.claimNotification(rows[2], 60, "oldest"))!.id).toBe(rows[0])
      // A window that has ended counts from nothing again.
      await service.updateOdemePayments({ selector: { session_id: "payses_lane" }, data: { verify_window_started_at: minutesAgo(5) } })
      expect(await service.laneOf(rows[2], 60)).toBe("newest")
      // A proven delivery is its own; an exact claim too.
      expect(await service.laneOf(proven!.row.id, 60)).toBe("exact")
      expect((await service.claimNotification(proven!.row.id, 60, "exact"))!.id).toBe(proven!.row.id)
      expect((await service.claimNotification(rows[1], 60, "exact"))!.id).toBe(rows[1])
      // Nothing due left but row 2: every turn takes it, then none.
      expect((await service.claimNotification(rows[4], 60, "newest"))!.id).toBe(rows[2])
      expect(await service.claimNotification(rows[4], 60, "newest")).toBeNull()
    })

    it("lists proven deliveries first among due rows", async () => {
      await pay("payses_due")
      const first = await service.storeNotification(webhook("payses_due", "key:d1"))
      const proven = await service.storeNotification(webhook("payses_due", "key:d2", { trusted: true }))
      expect((await service.dueNotificationIds(10)).filter((id) => [first!.row.id, proven!.row.id].includes(id))).toEqual([
        proven!.row.id,
        first!.row.id,
      ])
    })
  })

  describe("processing health, read when Admin asks", () => {
    it("lists notifications no process took up in time as one item, and those held back behind a budget per payment", async () => {
      await pay("payses_p1")
      await pay("payses_p2")
      // The poller runs (without its passes, work waiting this long would list it too: the next test).
      await service.notePollerPass()
      const fresh = await service.storeNotification(webhook("payses_p1", "key:p1a"))
      expect(await processing()).toEqual([])
      await service.updateOdemeNotifications({ id: fresh!.row.id, created_at: minutesAgo(4) } as never)
      const waiting = await service.storeNotification(webhook("payses_p1", "key:p1b"))
      await service.updateOdemeNotifications({ id: waiting!.row.id, state: "retry", next_attempt_at: minutesAgo(5), attempts: 1 } as never)
      // A retry not yet due is being processed (its backoff): not listed.
      const backoff = await service.storeNotification(webhook("payses_p1", "key:p1c"))
      await service.updateOdemeNotifications({
        id: backoff!.row.id,
        state: "retry",
        next_attempt_at: new Date(Date.now() + 60_000),
        attempts: 1,
      } as never)
      expect(await processing()).toEqual(["notifications_unprocessed:-:2"])

      // A session whose verify waited for its budget: its rows are held back, not unprocessed.
      const held = await service.storeNotification(webhook("payses_p2", "key:p2a"))
      await service.claimNotification(held!.row.id, 60, "exact")
      await service.deferNotification(held!.row.id, new Date(Date.now() + 30_000))
      await service.storeNotification(webhook("payses_p2", "key:p2b"))
      expect(await processing()).toEqual(["notifications_unprocessed:-:2"])
      await service.updateOdemeNotifications({ id: held!.row.id, created_at: minutesAgo(4) } as never)
      expect(await processing()).toEqual(["notifications_held_back:payses_p2:2", "notifications_unprocessed:-:2"])
      const row = await service.getNotification(held!.row.id)
      expect(row).toEqual(expect.objectContaining({ state: "retry", deferrals: 1, attempts: 0 }))
      const item = (await service.listAttention({ limit: 10, offset: 0, sessionIds: ["payses_p2"] })).rows[0]
      expect(item.detail).toBe("2 waiting; verify deferred 1 times for the session's budget")
    })

    it("lists a poller that has not run for three of its periods while work waits for it, until it runs again", async () => {
      await pay("payses_t1", { status: "awaiting_transfer", service_uuid: "u-t1", next_check_at: minutesAgo(1) })
      // The default schedule runs every minute: three minutes without a pass, with a check due that long.
      expect(await processing()).toEqual([])
      await service.updateOdemePayments({ selector: { session_id: "payses_t1" }, data: { next_check_at: minutesAgo(4) } })
      expect(await processing()).toEqual(["poller_not_running:-:-"])
      await service.notePollerPass()
      expect(await processing()).toEqual([])
      await service.updateOdemeHealths({ id: "poller_pass", last_at: minutesAgo(4) } as never)
      expect(await processing()).toEqual(["poller_not_running:-:-"])
    })

    it("does not blame the merchant panel for a return whose notification arrived and waits", async () => {
      await pay("payses_r1")
      await pay("payses_r2")
      const ret = (session_id: string, key: string) =>
        service.storeNotification({
          ...webhook(session_id, key),
          source: "return",
          service_uuid: null,
          trusted: true,
          state: "done",
          outcome: "navigation_only",
        })
      const code = async (session: string) =>
        (await service.listAttention({ limit: 10, offset: 0, sessionIds: [session], kinds: ["unconfirmed_return"] })).rows[0]?.code
      const r1 = await ret("payses_r1", "key:r1")
      await service.updateOdemeNotifications({ id: r1!.row.id, created_at: minutesAgo(10) } as never)
      expect(await code("payses_r1")).toBe("unconfirmed_return")
      // Another payment's webhook arrived since: the URL works, this payment's did not come.
      await pay("payses_other")
      await service.storeNotification(webhook("payses_other", "key:o1"))
      expect(await code("payses_r1")).toBe("unconfirmed_return_no_webhook")
      // Its own webhook is stored and waits to be processed: the worker, not the panel.
      await service.storeNotification(webhook("payses_r1", "key:r1w"))
      expect(await code("payses_r1")).toBe("unconfirmed_return_unprocessed")
      const counts = await service.listAttention({ limit: 1, offset: 0, sessionIds: ["payses_r1"] })
      expect(counts.codes).toEqual(expect.objectContaining({ unconfirmed_return_unprocessed: 1 }))
    })
  })

  describe("recordInitiated", () => {
    it("refreshes the money only of a payment nothing was asked for yet", async () => {
      const row = (amount: string) => ({
        session_id: "payses_m1",
        provider: "odeme-transfer",
        flow: "transfer_api" as const,
        mode: "sandbox" as const,
        amount,
        currency: "TRY",
      })
      await service.recordInitiated(row("5.00"))
      expect((await service.recordInitiated(row("6.00"))).amount).toBe("6.00")
      await service.updateOdemePayments({ selector: { session_id: "payses_m1" }, data: { creation_state: "created" } })
      expect((await service.recordInitiated(row("7.00"))).amount).toBe("6.00")
      await service.updateOdemePayments({ selector: { session_id: "payses_m1" }, data: { creation_state: "failed", status: "paid" } })
      expect((await service.recordInitiated(row("8.00"))).amount).toBe("6.00")
    })
  })
})
