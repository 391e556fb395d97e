/**
 * The inbox's shared statement against PostgreSQL: what it answers for mixed
 * batches, that concurrent batches never deadlock, how array parameters carry
 * awkward text, and what one row PostgreSQL refuses costs the others.
 */
import { odemeModuleTests } from "./module-runner"
import type { Knex } from "@medusajs/framework/mikro-orm/knex"
import { storeNotifications } from "../inbox"
import type { NotificationInput } from "../types"

jest.setTimeout(120_000)

const input = (session_id: string, dedupe_key: string, extra: Partial<NotificationInput> = {}): NotificationInput => ({
  source: "webhook",
  dedupe_key,
  session_id,
  service_uuid: "u",
  status: "successful",
  type: null,
  payload: { order_id: session_id },
  raw_body: null,
  ...extra,
})

odemeModuleTests(({ service }) => {
  const pg = () => (service as unknown as { pg_: Knex }).pg_
  const pay = (session_id: string) =>
    service.createOdemePayments({ session_id, provider: "odeme-checkout", mode: "sandbox", amount: "1.00", currency: "TRY" })

  describe("the shared inbox statement", () => {
    it("carries quotes, backslashes, braces, commas, 'NULL', empty strings, unicode and 64 KB bodies through its array parameters", async () => {
      await pay("payses_txt")
      const texts = [
        `quote ' and "double"`,
        'back\\slash \\\\ \\" \\N',
        "{braces},{,},{}",
        "a,b,c",
        "NULL",
        "null",
        "",
        " ",
        '"',
        "\\",
        "ünïcødé 🎉 中文 \u202e rtl",
        "x".repeat(64 * 1024),
      ]
      const inputs = texts.map((t, i) =>
        input("payses_txt", `txt:${i}`, {
          service_uuid: t,
          status: t,
          type: t,
          raw_body: t,
          outcome: "navigation_only" as const,
          payload: { v: t, [t.slice(0, 50) || "empty"]: t },
        })
      )
      inputs.push(input("payses_txt", "txt:null", { service_uuid: null, status: null, type: null, raw_body: null, outcome: null }))
      // Through the batcher, all at once (shared statements).
      const answers = await Promise.all(inputs.map((i) => service.storeNotification(i)))
      expect(answers.every((a) => a && !a.duplicate)).toBe(true)
      const rows = await pg()("odeme_notification").where({ session_id: "payses_txt" })
      for (const i of inputs) {
        const row = rows.find((r) => r.dedupe_key === i.dedupe_key)
        expect({ ...row, payload: row.payload }).toEqual(
          expect.objectContaining({
            service_uuid: i.service_uuid,
            status: i.status,
            type: i.type,
            raw_body: i.raw_body,
            outcome: i.outcome ?? null,
            payload: i.payload,
          })
        )
      }
      // The string "NULL" is text, a JS null is SQL NULL.
      expect(rows.find((r) => r.dedupe_key === "txt:4").status).toBe("NULL")
      expect(rows.find((r) => r.dedupe_key === "txt:null").status).toBeNull()
      expect(rows.find((r) => r.dedupe_key === "txt:6").status).toBe("")
    })

    it("never deadlocks nor hits 'cannot affect row a second time' when concurrent batches share keys in opposite orders", async () => {
      await pay("payses_dl")
      const failures: string[] = []
      for (let round = 0; round < 15; round++) {
        const keys = Array.from({ length: 100 }, (_, i) => `dl:${round}:${String(i).padStart(3, "0")}`)
        if (round % 2)
          await storeNotifications(
            pg(),
            keys.map((k) => input("payses_dl", k))
          ) // half the rounds: rows exist (DO UPDATE locks)
        const shuffled = [...keys].sort(() => Math.random() - 0.5)
        const orders = [keys, [...keys].reverse(), shuffled, [...shuffled].reverse()]
        const settled = await Promise.allSettled(
          orders.map((ks) =>
            storeNotifications(
              pg(),
              ks.map((k) => input("payses_dl", k))
            )
          )
        )
        for (const s of settled) if (s.status === "rejected") failures.push(String(s.reason).slice(-200))
      }
      expect(failures).toEqual([])
      const counts = await pg().raw(
        `select (substring(dedupe_key from 4 for position(':' in substring(dedupe_key from 4)) - 1))::int % 2 as existed, min(duplicate_count) as lo, max(duplicate_count) as hi, count(*) as n
         from odeme_notification where dedupe_key like 'dl:%' group by 1 order by 1`
      )
      expect(counts.rows).toEqual([
        { existed: 0, lo: 3, hi: 3, n: "800" },
        { existed: 1, lo: 4, hi: 4, n: "700" },
      ])
    })

    it("answers a mixed batch as the single-row statement would: copies, unknown sessions, dead, done and soft-deleted rows", async () => {
      await pay("payses_mx")
      const [dead] = await storeNotifications(pg(), [input("payses_mx", "mx:dead")])
      await pg()("odeme_notification").where({ id: dead!.row.id }).update({ state: "dead", attempts: 5 })
      const [gone] = await storeNotifications(pg(), [input("payses_mx", "mx:gone")])
      await pg()("odeme_notification").where({ id: gone!.row.id }).update({ deleted_at: pg().fn.now() })
      const batch = [
        input("payses_mx", "mx:new"),
        input("payses_nope", "mx:unknown"),
        input("payses_mx", "mx:dead"),
        input("payses_mx", "mx:new"),
        input("payses_mx", "mx:gone"),
        input("payses_mx", "mx:dead"),
        input("payses_mx", "mx:gone"),
      ]
      const out = await storeNotifications(pg(), batch)
      expect(out.map((o) => o && { dup: o.duplicate, state: o.row.state, attempts: o.row.attempts })).toEqual([
        { dup: false, state: "received", attempts: 0 },
        null,
        { dup: true, state: "retry", attempts: 0 },
        { dup: true, state: "received", attempts: 0 },
        { dup: false, state: "received", attempts: 0 },
        { dup: true, state: "retry", attempts: 0 },
        { dup: true, state: "received", attempts: 0 },
      ])
      expect(out[2]!.row.id).toBe(dead!.row.id)
      expect(out[4]!.row.id).not.toBe(gone!.row.id)
      expect(out[4]!.row.id).toBe(out[6]!.row.id)
      const live = await pg()("odeme_notification").whereNull("deleted_at").where({ session_id: "payses_mx" }).orderBy("dedupe_key")
      expect(live.map((r) => [r.dedupe_key, r.duplicate_count])).toEqual([
        ["mx:dead", 2],
        ["mx:gone", 1],
        ["mx:new", 1],
      ])
    })

    it("stores a lone UTF-16 surrogate in a text column (a raw body cut inside an emoji) as U+FFFD, never failing the statement it shares", async () => {
      await pay("payses_cut")
      const cut = '{"x":"😀"}'.slice(0, 7)
      const sizes: number[] = []
      const intake = (service as unknown as { intake_: { write: (inputs: NotificationInput[]) => Promise<unknown> } }).intake_
      const write = intake.write
      intake.write = (inputs) => (sizes.push(inputs.length), write(inputs))
      const answers = await Promise.all(
        [
          input("payses_cut", "cut:raw", { raw_body: cut, type: "a\udc00b" }),
          input("payses_cut", "cut:ok"),
          input("payses_none", "cut:unknown", { raw_body: cut, session_id: "payses_none\ud800" }),
        ].map((i) => service.storeNotification(i))
      ).finally(() => (intake.write = write))
      expect(sizes).toEqual([3])
      expect(answers.map((a) => (a ? "stored" : "unknown"))).toEqual(["stored", "stored", "unknown"])
      const row = await pg()("odeme_notification").where({ dedupe_key: "cut:raw" }).first()
      expect([row.raw_body, row.type]).toEqual(['{"x":"\ufffd', "a\ufffdb"])
    })

    it("one notification jsonb refuses (a lone UTF-16 surrogate) fails only itself; the others of its statement are stored", async () => {
      await pay("payses_poison")
      const good = Array.from({ length: 30 }, (_, i) => input("payses_poison", `ps:${i}`))
      const poison = input("payses_poison", "ps:poison", { payload: { order_id: "payses_poison", message: "\ud800" } })
      const all = [...good.slice(0, 15), poison, ...good.slice(15)]
      // Record the statements the service's batcher sends (to see the poison was in a shared one).
      const intake = (service as unknown as { intake_: { write: (inputs: NotificationInput[]) => Promise<unknown> } }).intake_
      const write = intake.write
      const sizes: Array<{ n: number; poisoned: boolean }> = []
      intake.write = (inputs) => (sizes.push({ n: inputs.length, poisoned: inputs.includes(poison) }), write(inputs))
      const answers = await Promise.allSettled(all.map((i) => service.storeNotification(i))).finally(() => (intake.write = write))
      // All 31 sent together share a statement that fails, then halves down to the poison alone: not one statement per row.
      expect(sizes.filter((s) => s.poisoned).map((s) => s.n)).toEqual([31, 16, 8, 4, 2, 1])
      expect(sizes.length).toBeLessThan(15)
      const refused = answers.flatMap((a, i) => (a.status === "rejected" ? [[all[i].dedupe_key, String(a.reason).split(" - ").pop()]] : []))
      expect(refused).toEqual([["ps:poison", expect.stringContaining("invalid input syntax for type json")]])
      expect(await pg()("odeme_notification").where({ session_id: "payses_poison" })).toHaveLength(30)
      // The same text for a session this store does not have is never cast: unknown, no error.
      await expect(storeNotifications(pg(), [{ ...poison, session_id: "payses_none", dedupe_key: "ps:unknown" }])).resolves.toEqual([null])
    })

    it("stores a copy whose key another copy of the batch shares with another session, as one at a time would", async () => {
      await pay("payses_known")
      const out = await storeNotifications(pg(), [input("payses_unknown", "same:key"), input("payses_known", "same:key")])
      expect(out[0]).toBeNull()
      expect(out[1]).toEqual({ row: expect.objectContaining({ state: "received" }), duplicate: false })
    })

    it("refuses a key that would not come back from PostgreSQL as it went (answers are matched by it)", async () => {
      await pay("payses_key")
      await expect(storeNotifications(pg(), [input("payses_key", "key:\ud800")])).rejects.toThrow(/not plain ASCII/)
      expect(await pg()("odeme_notification").where({ session_id: "payses_key" })).toHaveLength(0)
    })
  })

  describe("Medusa's generic hook route", () => {
    // The route's batch bounds how many wait (it answers 503 beyond, and the service delivers again);
    // the generic route has answered 200 before the plugin sees a notification, so nobody would.
    it("stores every notification of a flood the batch would turn away", async () => {
      await pay("payses_flood")
      const flood = (prefix: string) => Array.from({ length: 1_100 }, (_, i) => input("payses_flood", `${prefix}:${i}`))
      const batched = await Promise.allSettled(flood("b").map((i) => service.storeNotification(i)))
      // Those beyond the first 1,000 are refused at once (a slow machine may also refuse some that waited 5 s).
      const full = batched.filter((r) => r.status === "rejected" && /already wait for the database/.test(String(r.reason)))
      expect(full).toHaveLength(100)

      const generic = await Promise.allSettled(flood("g").map((i) => service.storeNotificationUnbounded(i)))
      expect(generic.filter((r) => r.status === "rejected")).toEqual([])
      const [{ n }] = (await pg().raw(`select count(*)::int as n from odeme_notification where dedupe_key like 'g:%'`)).rows
      expect(n).toBe(1_100)
    })

    it("counts what came that way and verify confirmed in the webhook health Settings → Odeme reads", async () => {
      await pay("payses_health")
      const before = await service.webhookHealth()
      await service.storeNotification(input("payses_health", "health:plugin"))
      const genuine = await service.storeNotificationUnbounded(input("payses_health", "health:genuine", { payload: { medusa_hook: true } }))
      const forged = await service.storeNotificationUnbounded(input("payses_health", "health:forged", { payload: { medusa_hook: true } }))
      await service.settleNotification(genuine!.row.id, { state: "done", outcome: "paid", verify_result: { is_valid: true } })
      await service.settleNotification(forged!.row.id, { state: "done", outcome: "rejected", verify_result: { is_valid: false } })
      const after = await service.webhookHealth()
      expect(after.webhooks_24h - before.webhooks_24h).toBe(3)
      // Anyone can post for a known session id there: only what verify confirmed says the merchant panel is wrong.
      expect(after.medusa_hook_24h - before.medusa_hook_24h).toBe(1)
      expect(after.last_webhook_at).not.toBeNull()
    })
  })
})
