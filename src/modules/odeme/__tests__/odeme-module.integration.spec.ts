import { decide, type ServiceAnswer } from "../../../lib/payment-state/transitions"
import { PAYMENT_STATES, type ChargeRole } from "../models/states"
import { odemeModuleTests } from "./module-runner"

jest.setTimeout(60_000)

odemeModuleTests(({ service }) => {
  describe("odeme module", () => {
    /** A customer's return that said "paid" (navigation only: nothing verifies it). */
    /** The customer's own return (with the session's proof) saying "paid". */
    const paidReturn = (session_id: string, dedupe_key: string) =>
      service.storeNotification({
        source: "return",
        dedupe_key,
        session_id,
        service_uuid: null,
        status: "successful",
        type: null,
        payload: {},
        raw_body: null,
        trusted: true,
        state: "done",
        outcome: "navigation_only",
      })

    it("parses the plugin options and builds one client", () => {
      expect(service.odemeOptions.mode).toBe("sandbox")
      expect(service.odemeOptions.httpTimeoutMs).toBe(10_000)
      expect(service.client).toBeDefined()
      expect(JSON.stringify(service.client)).not.toContain("sk_module_test")
    })

    it("stores payments with their defaults and finds them by session", async () => {
      const created = await service.createOdemePayments({
        session_id: "payses_1",
        provider: "odeme-transfer",
        mode: "sandbox",
        amount: "250.00",
        currency: "TRY",
      })
      expect(created).toEqual(expect.objectContaining({ status: "pending", creation_state: "none", check_attempts: 0 }))
      const found = (await service.getPayment("payses_1"))!
      expect(found.id).toBe(created.id)
      expect((await service.getPayments(["payses_1", "payses_none"])).map((p) => p.id)).toEqual([created.id])
    })

    it("a session initiated again refreshes its amount and keeps what the plugin noted on it", async () => {
      const first = { session_id: "payses_ri1", provider: "odeme-transfer", flow: "transfer_api", mode: "sandbox", currency: "TRY" } as const
      await service.recordInitiated({ ...first, amount: "250.00", metadata: { return_url: "https://shop.example/a" } })
      await service.noteMedusaRefusal("payses_ri1", "rest_not_asked", { order_id: "order_ri1", reason: "no collection" })
      const again = await service.recordInitiated({ ...first, amount: "300.00", metadata: { return_url: "https://shop.example/b" } })
      expect(again.amount).toBe("300.00")
      expect(again.metadata).toEqual({
        return_url: "https://shop.example/b",
        rest_not_asked: expect.objectContaining({ order_id: "order_ri1", reason: "no collection" }),
      })
      // Without metadata the stored one stays as it is.
      expect((await service.recordInitiated({ ...first, amount: "300.00" })).metadata).toEqual(again.metadata)
    })

    it("claims a due transfer once until its lease ends, and a new next check ends the lease", async () => {
      const due = async (session_id: string) => {
        await service.createOdemePayments({
          session_id,
          provider: "odeme-transfer",
          flow: "transfer_api",
          mode: "sandbox",
          amount: "9.00",
          currency: "TRY",
          status: "awaiting_transfer",
        })
        await service.updatePaymentDetails(session_id, { service_uuid: `uuid-${session_id}`, next_check_at: new Date(Date.now() - 1000) })
      }
      await due("payses_lease_a")
      await due("payses_lease_b")
      const claimed = (rows: { session_id: string }[]) =>
        rows
          .map((r) => r.session_id)
          .filter((id) => id.startsWith("payses_lease_"))
          .sort()
      expect(claimed(await service.claimDueTransfers(10, 120))).toEqual(["payses_lease_a", "payses_lease_b"])
      // A second poller (another worker) gets neither while the leases run.
      expect(claimed(await service.claimDueTransfers(10, 120))).toEqual([])
      // Checked: the next check is set, and it alone decides when the transfer is due again.
      await service.recordChecks([
        { session_id: "payses_lease_a", version: 0, details: { next_check_at: new Date(Date.now() - 1000), last_result: "pending" } },
      ])
      await service.updatePaymentDetails("payses_lease_b", { next_check_at: new Date(Date.now() - 1000) })
      // (A lease of 0 s: ended as soon as it is taken, as one whose poller died ends after its time.)
      expect(claimed(await service.claimDueTransfers(10, 0))).toEqual(["payses_lease_a", "payses_lease_b"])
      expect(claimed(await service.claimDueTransfers(10, 120))).toEqual(["payses_lease_a", "payses_lease_b"])
    })

    it("allows one payment row per session and one notification per dedupe key", async () => {
      const row = { session_id: "payses_2", provider: "odeme-checkout", mode: "sandbox" as const, amount: "1.00", currency: "TRY" }
      await service.createOdemePayments(row)
      await expect(service.createOdemePayments(row)).rejects.toThrow()

      const n = { source: "webhook" as const, dedupe_key: "n:u:successful", payload: { a: 1 } }
      await service.createOdemeNotifications(n)
      await expect(service.createOdemeNotifications(n)).rejects.toThrow()
      expect(await service.listOdemeNotifications({ dedupe_key: "n:u:successful" })).toHaveLength(1)
    })

    it("stores webhooks that arrive together once each, counts their copies and refuses unknown sessions", async () => {
      const sessions = ["payses_b1", "payses_b2", "payses_b3"]
      for (const session_id of sessions) {
        await service.createOdemePayments({ session_id, provider: "odeme-checkout", mode: "sandbox", amount: "1.00", currency: "TRY" })
      }
      const input = (session_id: string, key: string) => ({
        source: "webhook" as const,
        dedupe_key: key,
        session_id,
        service_uuid: "u",
        status: "successful",
        type: null,
        payload: { order_id: session_id, note: `quote ' and "double", {braces} and back\\slash` },
        raw_body: `{"order_id":"${session_id}"}`,
      })
      // 3 sessions x 4 copies each, plus one session this store never had, all at once.
      const inputs = [...sessions.flatMap((s) => Array.from({ length: 4 }, () => input(s, `key:${s}`))), input("payses_unknown", "key:unknown")]
      const answers = await Promise.all(inputs.map((i) => service.storeNotification(i)))

      expect(answers[answers.length - 1]).toBeNull()
      for (const session of sessions) {
        const mine = answers.filter((_, i) => inputs[i].session_id === session)
        expect(mine.filter((a) => a && !a.duplicate)).toHaveLength(1)
        expect(new Set(mine.map((a) => a!.row.id)).size).toBe(1)
        const [row] = await service.listOdemeNotifications({ dedupe_key: `key:${session}` })
        expect(row).toEqual(expect.objectContaining({ state: "received", duplicate_count: 3, raw_body: `{"order_id":"${session}"}` }))
        expect(row.payload).toEqual(input(session, "").payload)
      }
      expect(await service.listOdemeNotifications({ session_id: "payses_unknown" })).toHaveLength(0)
    })

    it("gives a dead notification another round when the service delivers it again, and stores a finished one as done", async () => {
      await service.createOdemePayments({ session_id: "payses_d1", provider: "odeme-checkout", mode: "sandbox", amount: "1.00", currency: "TRY" })
      const base = { session_id: "payses_d1", service_uuid: "u", status: "successful", type: null, payload: {}, raw_body: null }
      const first = await service.storeNotification({ ...base, source: "webhook", dedupe_key: "key:dead" })
      await service.updateOdemeNotifications({ id: first!.row.id, state: "dead", attempts: 5 })
      const again = await service.storeNotification({ ...base, source: "webhook", dedupe_key: "key:dead" })
      expect(again).toEqual({ row: { id: first!.row.id, state: "retry", attempts: 0 }, duplicate: true })

      const done = await service.storeNotification({ ...base, source: "return", dedupe_key: "key:done", state: "done", outcome: "navigation_only" })
      const [row] = await service.listOdemeNotifications({ id: done!.row.id })
      expect(row).toEqual(expect.objectContaining({ state: "done", outcome: "navigation_only", duplicate_count: 0 }))
      expect(row.processed_at).not.toBeNull()
    })

    it("tells whether a session's customer may be paying it: its row changed, a form signed, a return or webhook stored since, or a webhook not yet judged", async () => {
      await service.createOdemePayments({ session_id: "payses_mp1", provider: "odeme-checkout", mode: "sandbox", amount: "1.00", currency: "TRY" })
      const at = (ms: number) => new Date(Date.now() + ms)
      const hour = 3_600_000
      expect(await service.maybePaying("payses_mp1", { changed: at(-hour), noted: at(hour) })).toBe(true)
      expect(await service.maybePaying("payses_mp1", { changed: at(hour), noted: at(hour) })).toBe(false)
      const base = { session_id: "payses_mp1", service_uuid: "u", status: "successful", type: null, payload: {}, raw_body: null }
      // A return (navigation) counts by when it came, and within `noted` only.
      await service.storeNotification({ ...base, source: "return", dedupe_key: "key:mp-return", state: "done", outcome: "navigation_only" })
      expect(await service.maybePaying("payses_mp1", { changed: at(hour), noted: at(-hour) })).toBe(true)
      expect(await service.maybePaying("payses_mp1", { changed: at(hour), noted: at(hour) })).toBe(false)
      // A webhook verify refused (forged) shows nobody paying.
      await service.createOdemePayments({ session_id: "payses_mp2", provider: "odeme-checkout", mode: "sandbox", amount: "1.00", currency: "TRY" })
      const forged = { ...base, session_id: "payses_mp2", source: "webhook" as const, dedupe_key: "key:mp-forged", state: "done" as const }
      await service.storeNotification({ ...forged, outcome: "rejected" })
      expect(await service.maybePaying("payses_mp2", { changed: at(hour), noted: at(-hour) })).toBe(false)
      // A form signed (by the database's clock: the row's own, read back) counts within `noted`.
      await service.noteFormSigned("payses_mp2")
      const signed = (await service.getPayment("payses_mp2"))!.form_signed_at as Date
      expect(signed).toBeInstanceOf(Date)
      expect(await service.maybePaying("payses_mp2", { changed: at(hour), noted: new Date(signed.getTime() - 1) })).toBe(true)
      expect(await service.maybePaying("payses_mp2", { changed: at(hour), noted: new Date(signed.getTime() + 1) })).toBe(false)
      // A webhook still waiting to be judged counts whenever it came.
      await service.storeNotification({ ...base, source: "webhook", dedupe_key: "key:mp-hook" })
      expect(await service.maybePaying("payses_mp1", { changed: at(hour), noted: at(hour) })).toBe(true)
    })

    it("counts a session's returns, and its webhooks still waiting to be processed, up to a bound", async () => {
      await service.createOdemePayments({ session_id: "payses_c1", provider: "odeme-checkout", mode: "sandbox", amount: "1.00", currency: "TRY" })
      const base = { session_id: "payses_c1", service_uuid: "u", status: "successful", type: null, payload: {}, raw_body: null }
      const hooks = []
      for (const k of [1, 2, 3]) hooks.push(await service.storeNotification({ ...base, source: "webhook", dedupe_key: `key:c${k}` }))
      await service.storeNotification({ ...base, source: "return", dedupe_key: "key:cr", state: "done", outcome: "navigation_only" })
      expect(await service.countOpenWebhooks("payses_c1", 50)).toBe(3)
      expect(await service.countOpenWebhooks("payses_c1", 2)).toBe(2)
      await service.updateOdemeNotifications({ id: hooks[0]!.row.id, state: "done" })
      expect(await service.countOpenWebhooks("payses_c1", 50)).toBe(2)
      // Returns anyone can send are bounded apart from the customer's own (with the session's proof).
      expect(await service.countReturns("payses_c1", false, 50)).toBe(1)
      expect(await service.countReturns("payses_c1", true, 50)).toBe(0)
      await service.storeNotification({ ...base, source: "return", dedupe_key: "key:cr2", state: "done", outcome: "navigation_only", trusted: true })
      expect(await service.countReturns("payses_c1", true, 50)).toBe(1)
      expect(await service.countReturns("payses_c1", false, 50)).toBe(1)
    })

    it("a copy verify once refused is verified again when it is delivered again; a navigation row is not", async () => {
      await service.createOdemePayments({ session_id: "payses_r1", provider: "odeme-checkout", mode: "sandbox", amount: "1.00", currency: "TRY" })
      const base = { session_id: "payses_r1", service_uuid: "u", status: "successful", type: null, payload: {}, raw_body: null }
      const first = await service.storeNotification({ ...base, source: "webhook", dedupe_key: "key:refused" })
      await service.updateOdemeNotifications({ id: first!.row.id, state: "done", outcome: "rejected", attempts: 1 })
      const again = await service.storeNotification({ ...base, source: "webhook", dedupe_key: "key:refused" })
      expect(again).toEqual({ row: { id: first!.row.id, state: "retry", attempts: 0 }, duplicate: true })

      const nav = await service.storeNotification({ ...base, source: "return", dedupe_key: "key:nav", state: "done", outcome: "navigation_only" })
      const navAgain = await service.storeNotification({
        ...base,
        source: "return",
        dedupe_key: "key:nav",
        state: "done",
        outcome: "navigation_only",
      })
      expect(navAgain!.row).toEqual({ id: nav!.row.id, state: "done", attempts: 0 })
    })

    it("every decision of the transition table that warns leaves an item in needs attention (the table and the attention query together)", async () => {
      const answers: ServiceAnswer[] = [
        { kind: "paid", uuid: "u-own", amount: "5.00", currency: "TRY" },
        { kind: "paid", uuid: "u-other", amount: "5.00", currency: "TRY" },
        { kind: "mismatch", uuid: "u-own", amount: "1.00", currency: "TRY", reason: "amount" },
        { kind: "mismatch", uuid: "u-other", amount: "1.00", currency: "TRY", reason: "amount" },
        { kind: "failed", uuid: "u-own" },
        { kind: "creation_unknown", detail: "timeout" },
        { kind: "order_canceled", uuid: "u-own", captured: false },
        { kind: "already_paid", uuid: "u-own" },
      ]
      const medusas = [
        { session_alive: true },
        { session_alive: false },
        { session_alive: true, order_canceled: true },
        { session_alive: true, paid_elsewhere: true },
      ]
      let n = 0
      for (const status of PAYMENT_STATES) {
        for (const review_code of status === "review" ? (["amount_mismatch", "late_success", "already_paid", "contradiction"] as const) : [null]) {
          for (const a of answers) {
            for (const medusa of medusas) {
              const d = decide({ status, review_code, primary_uuid: status === "pending" ? null : "u-own" }, a, medusa)
              if (!d.warn) continue
              const session_id = `payses_warn${String(++n).padStart(6, "0")}`
              const adopted = d.adopt_uuid && "uuid" in a ? a.uuid : status === "pending" ? null : "u-own"
              await service.createOdemePayments({
                session_id,
                provider: "odeme-checkout",
                mode: "sandbox",
                amount: "5.00",
                currency: "TRY",
                status: d.to,
                review_code: d.review_code,
                service_uuid: adopted,
              })
              const uuid = "uuid" in a ? a.uuid : null
              if (uuid && d.charge) {
                const success = a.kind === "paid" || a.kind === "mismatch" || a.kind === "order_canceled" || a.kind === "already_paid"
                // "keep": the role the uuid already had (primary when it is the payment's own).
                const role: ChargeRole = d.charge === "keep" ? (uuid === "u-own" && status !== "pending" ? "primary" : "none") : d.charge
                await service.recordCharge({
                  session_id,
                  service_uuid: uuid,
                  status: success ? "successful" : "failed",
                  role,
                  type: null,
                  amount: "5.00",
                  currency: "TRY",
                  detail: null,
                  verified: true,
                })
              }
              const { rows } = await service.listAttention({ limit: 10, offset: 0, sessionIds: [session_id] })
              expect({ status, review_code, answer: a, medusa, listed: rows.length > 0 }).toEqual({
                status,
                review_code,
                answer: a,
                medusa,
                listed: true,
              })
            }
          }
        }
      }
      expect(n).toBeGreaterThan(20)
    })

    it("records one refund to-do per Medusa refund and lists it until acknowledged", async () => {
      await service.createOdemePayments({ session_id: "payses_f1", provider: "odeme-checkout", mode: "sandbox", amount: "80.00", currency: "TRY" })
      const refund = { session_id: "payses_f1", medusa_refund_id: "ref_1", amount: "80.00", currency: "TRY" }
      await service.recordRefund(refund)
      await service.recordRefund(refund)
      const { rows, counts } = await service.listAttention({ limit: 50, offset: 0, sessionIds: ["payses_f1"] })
      expect(counts.refund_due).toBe(1)
      expect(rows[0]).toEqual(
        expect.objectContaining({
          kind: "refund_due",
          code: "refund_due",
          amount: "80.00",
          currency: "TRY",
          refund_id: expect.stringMatching(/^odref_/),
        })
      )
      await service.acknowledgeRefund(rows[0].refund_id!, "user_1")
      expect((await service.listAttention({ limit: 50, offset: 0, sessionIds: ["payses_f1"] })).counts.refund_due).toBe(0)

      // One Medusa could not make (no Medusa refund id): once per session, acknowledged or not, beside Medusa's own.
      const byHand = { session_id: "payses_f1", medusa_refund_id: null, amount: "80.00", currency: "TRY" }
      await service.recordRefund(byHand)
      await service.recordRefund(byHand)
      await service.recordRefund({ ...refund, medusa_refund_id: "ref_2" })
      expect((await service.listAttention({ limit: 50, offset: 0, sessionIds: ["payses_f1"] })).counts.refund_due).toBe(2)
    })

    it("lists a return that said paid with no verified notification, a payment that keeps failing, and a review a person resolved no more", async () => {
      const pay = (session_id: string, extra: Record<string, unknown> = {}) =>
        service.createOdemePayments({ session_id, provider: "odeme-checkout", mode: "sandbox", amount: "5.00", currency: "TRY", ...extra })
      await pay("payses_u1")
      const ret = await paidReturn("payses_u1", "key:ret")
      const sessions = ["payses_u1", "payses_s1", "payses_c1", "payses_v1"]
      const list = async () => (await service.listAttention({ limit: 50, offset: 0, sessionIds: sessions })).rows
      expect(await list()).toEqual([]) // younger than notifications.unconfirmedAfterMinutes
      await service.updateOdemeNotifications({ id: ret!.row.id, created_at: new Date(Date.now() - 10 * 60_000) } as never)
      expect(await list()).toEqual([expect.objectContaining({ kind: "unconfirmed_return", code: "unconfirmed_return", session_id: "payses_u1" })])

      await pay("payses_s1", { status: "paid", settle_failures: 5 })
      await pay("payses_c1", { status: "awaiting_transfer", check_failures: 4 })
      const codes = async () => (await list()).map((r) => r.code).sort()
      expect(await codes()).toEqual(["settle_failing", "unconfirmed_return"])
      await service.countFailure("payses_c1", "check", true)
      expect(await codes()).toEqual(["checks_failing", "settle_failing", "unconfirmed_return"])
      await service.countFailure("payses_c1", "check", false)

      await pay("payses_v1", { status: "review", review_code: "contradiction" })
      expect(await codes()).toEqual(["contradiction", "settle_failing", "unconfirmed_return"])
      const resolved = await service.resolvePayment("payses_v1", "user_1", "Checked in the panel: paid, shipped")
      expect(resolved).toEqual(
        expect.objectContaining({ status: "review", resolution_note: "Checked in the panel: paid, shipped", resolved_by: "user_1" })
      )
      expect(await codes()).toEqual(["settle_failing", "unconfirmed_return"])
      // Nothing to resolve on a payment that waits for nobody.
      await pay("payses_n1")
      expect(await service.resolvePayment("payses_n1", "user_1", "x")).toBeNull()
      // A "paid" return no notification confirmed waits for a person who checked the merchant panel.
      expect(await service.resolvePayment("payses_u1", "user_1", "Not in the merchant panel")).toEqual(
        expect.objectContaining({ status: "pending", resolved_by: "user_1" })
      )
      expect(await codes()).toEqual(["settle_failing"])
      // The first return 30 minutes ago, resolved 20 minutes ago; the customer paid after all and came back "paid"
      // 10 minutes ago: that return is newer than what the person saw, and listed again.
      await service.updateOdemeNotifications({ id: ret!.row.id, created_at: new Date(Date.now() - 30 * 60_000) } as never)
      const pg = (service as unknown as { pg_: import("@medusajs/framework/mikro-orm/knex").Knex }).pg_
      await pg("odeme_payment")
        .where({ session_id: "payses_u1" })
        .update({ resolved_at: new Date(Date.now() - 20 * 60_000) })
      expect(await codes()).toEqual(["settle_failing"])
      const later = await paidReturn("payses_u1", "key:ret-later")
      await service.updateOdemeNotifications({ id: later!.row.id, created_at: new Date(Date.now() - 10 * 60_000) } as never)
      expect(await codes()).toEqual(["settle_failing", "unconfirmed_return"])
    })

    it("keeps an unconfirmed return listed after Medusa canceled its session, lets a person resolve a stuck payment, and lists a resolved payment again when its state changes", async () => {
      const pay = (session_id: string, extra: Record<string, unknown> = {}) =>
        service.createOdemePayments({ session_id, provider: "odeme-checkout", mode: "sandbox", amount: "5.00", currency: "TRY", ...extra })
      const sessions = ["payses_rc1", "payses_rs1", "payses_rv1"]
      const codes = async () =>
        (await service.listAttention({ limit: 50, offset: 0, sessionIds: sessions })).rows.map((r) => `${r.session_id}:${r.code}`).sort()

      // Paid on the service's page, came back, then changed the cart: Medusa deleted the session, the webhook never came.
      await pay("payses_rc1", { status: "canceled" })
      const ret = await paidReturn("payses_rc1", "key:ret-rc1")
      await service.updateOdemeNotifications({ id: ret!.row.id, created_at: new Date(Date.now() - 10 * 60_000) } as never)
      expect(await codes()).toEqual(["payses_rc1:unconfirmed_return"])

      // "Mark resolved" is offered on stuck items: it must work on them.
      await pay("payses_rs1", { status: "paid", settle_failures: 5 })
      expect(await codes()).toEqual(["payses_rc1:unconfirmed_return", "payses_rs1:settle_failing"])
      expect(await service.resolvePayment("payses_rs1", "user_1", "Captured by hand in Medusa")).toEqual(expect.objectContaining({ status: "paid" }))
      expect(await codes()).toEqual(["payses_rc1:unconfirmed_return"])

      // Resolved while amount_mismatch; the genuine payment then paid it and the service later said failed: a new item.
      await pay("payses_rv1", { status: "review", review_code: "amount_mismatch" })
      await service.resolvePayment("payses_rv1", "user_1", "Edited copy, nothing charged")
      expect(await codes()).toEqual(["payses_rc1:unconfirmed_return"])
      const v0 = (await service.getPayment("payses_rv1"))!
      const paid = await service.compareAndSetState("payses_rv1", v0.version, { status: "paid", review_code: null, review_reason: null })
      expect(paid).toEqual(expect.objectContaining({ status: "paid", resolved_at: null }))
      await service.compareAndSetState("payses_rv1", paid!.version, {
        status: "review",
        review_code: "contradiction",
        review_reason: "failed after paid",
      })
      expect(await codes()).toEqual(["payses_rc1:unconfirmed_return", "payses_rv1:contradiction"])
      // The same state written again (details only) keeps what the person resolved.
      await service.resolvePayment("payses_rv1", "user_1", "Checked: the service refunded it")
      const v2 = (await service.getPayment("payses_rv1"))!
      await service.compareAndSetState("payses_rv1", v2.version, {
        status: "review",
        review_code: "contradiction",
        review_reason: "failed after paid",
      })
      expect(await codes()).toEqual(["payses_rc1:unconfirmed_return"])
    })

    it("lists what Medusa would not do for a payment (an unpaid transfer's order not canceled, the rest of an edited order not asked for) until it is done or a person resolves it", async () => {
      const sessions = ["payses_mr1", "payses_mr2"]
      await service.createOdemePayments({
        session_id: "payses_mr1",
        provider: "odeme-transfer",
        mode: "sandbox",
        amount: "5.00",
        currency: "TRY",
        status: "expired",
        metadata: { return_url: "https://shop.example/r" },
      })
      await service.createOdemePayments({
        session_id: "payses_mr2",
        provider: "odeme-checkout",
        mode: "sandbox",
        amount: "5.00",
        currency: "TRY",
        status: "paid",
        order_id: "order_mr2",
      })
      const items = async () =>
        (await service.listAttention({ limit: 50, offset: 0, sessionIds: sessions })).rows.map((r) => [
          r.session_id,
          r.kind,
          r.code,
          r.order_id,
          r.detail,
        ])
      expect(await items()).toEqual([])

      await service.noteMedusaRefusal("payses_mr1", "order_not_canceled", {
        order_id: "order_mr1",
        reason: "All fulfillments must be canceled before canceling an order",
      })
      await service.noteMedusaRefusal("payses_mr2", "rest_not_asked", { order_id: "order_mr2", reason: "lock timeout" })
      expect((await items()).sort()).toEqual([
        ["payses_mr1", "review", "order_not_canceled", "order_mr1", "All fulfillments must be canceled before canceling an order"],
        ["payses_mr2", "review", "rest_not_asked", "order_mr2", "lock timeout"],
      ])
      // What else the payment keeps (the storefront's return address) is left as it is.
      expect((await service.getPayment("payses_mr1"))!.metadata).toEqual(expect.objectContaining({ return_url: "https://shop.example/r" }))

      // Done after all: the item goes.
      await service.noteMedusaRefusal("payses_mr2", "rest_not_asked", null)
      // A person resolves the other; the same refusal told again stays resolved, another one is a new item.
      expect(await service.resolvePayment("payses_mr1", "user_1", "Shipped; the customer paid in cash")).toEqual(
        expect.objectContaining({ status: "expired" })
      )
      expect(await items()).toEqual([])
      // Told the same again (Ask Odeme now on it): what the person resolved holds.
      await service.noteMedusaRefusal("payses_mr1", "order_not_canceled", {
        order_id: "order_mr1",
        reason: "All fulfillments must be canceled before canceling an order",
      })
      expect(await items()).toEqual([])
      await service.noteMedusaRefusal("payses_mr1", "order_not_canceled", { order_id: "order_mr1", reason: "the order is completed" })
      expect(await items()).toEqual([["payses_mr1", "review", "order_not_canceled", "order_mr1", "the order is completed"]])
      // Canceled by hand after all: the item goes.
      await service.forgetOrderNotCanceled("order_mr1")
      expect(await items()).toEqual([])
      await service.noteMedusaRefusal("payses_mr1", "order_not_canceled", { order_id: "order_mr1", reason: "the order is completed" })
      expect(await items()).toEqual([["payses_mr1", "review", "order_not_canceled", "order_mr1", "the order is completed"]])
      // The money came after all and paid the order: the refusal is no longer an item.
      const expired = (await service.getPayment("payses_mr1"))!
      await service.compareAndSetState("payses_mr1", expired.version, { status: "paid", review_code: null, review_reason: null })
      expect(await items()).toEqual([])
    })

    it("lists a canceled transfer the service keeps not answering about: the customer may still send it", async () => {
      await service.createOdemePayments({
        session_id: "payses_cf1",
        provider: "odeme-transfer",
        mode: "sandbox",
        amount: "5.00",
        currency: "TRY",
        status: "canceled",
        check_failures: 4,
      })
      const codes = async () => (await service.listAttention({ limit: 50, offset: 0, sessionIds: ["payses_cf1"] })).rows.map((r) => r.code)
      expect(await codes()).toEqual([])
      await service.countFailure("payses_cf1", "check", true)
      expect(await codes()).toEqual(["checks_failing"])
      await service.countFailure("payses_cf1", "check", false)
      expect(await codes()).toEqual([])
    })

    it("links a cart and its order to the cart's payments in one transaction: a refused second update leaves the first undone", async () => {
      const pay = (session_id: string) =>
        service.createOdemePayments({ session_id, provider: "odeme-checkout", mode: "sandbox", amount: "5.00", currency: "TRY" })
      await pay("payses_link_a")
      await pay("payses_link_b")
      await service.linkCart("payses_link_b", "cart_link", null)
      await service.linkCart("payses_link_a", "cart_link", "order_link")
      expect(await service.getPayment("payses_link_a")).toEqual(expect.objectContaining({ cart_id: "cart_link", order_id: "order_link" }))
      expect(await service.getPayment("payses_link_b")).toEqual(expect.objectContaining({ cart_id: "cart_link", order_id: "order_link" }))

      // The order update of another cart refused by the database: the cart named just before is rolled back with it.
      await pay("payses_link_c")
      const pg = (service as unknown as { pg_: import("@medusajs/framework/mikro-orm/knex").Knex }).pg_
      await pg.raw(
        `create or replace function odeme_test_refuse() returns trigger language plpgsql as $$ begin raise exception 'refused by the test'; end $$`
      )
      await pg.raw(
        `create trigger odeme_test_refuse before update of order_id on odeme_payment for each row when (new.cart_id = 'cart_refused') execute function odeme_test_refuse()`
      )
      try {
        await expect(service.linkCart("payses_link_c", "cart_refused", "order_refused")).rejects.toThrow(/refused by the test/)
      } finally {
        await pg.raw(`drop trigger odeme_test_refuse on odeme_payment`)
        await pg.raw(`drop function odeme_test_refuse()`)
      }
      expect(await service.getPayment("payses_link_c")).toEqual(expect.objectContaining({ cart_id: null, order_id: null }))
    })
  })
})

describe("odeme module with bad options", () => {
  it("refuses to start and names every bad field", () => {
    const Service = require("../service").default
    expect(() => new Service({ logger: console }, { apiKey: "", mode: "live" })).toThrow(/apiKey.*apiId.*baseUrl/)
  })
})
