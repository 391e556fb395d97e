import { odemeModuleTests } from "./module-runner"

jest.setTimeout(60_000)

odemeModuleTests(({ service }) => {
  describe("odeme module", () => {
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
      const [found] = await service.listOdemePayments({ session_id: "payses_1" })
      expect(found.id).toBe(created.id)
    })

    it("allows one payment row per session and one notification per dedupe key", async () => {
      const row = { session_id: "payses_2", provider: "odeme-checkout", mode: "sandbox", amount: "1.00", currency: "TRY" }
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
  })
})

describe("odeme module with bad options", () => {
  it("refuses to start and names every bad field", () => {
    const Service = require("../service").default
    expect(() => new Service({ logger: console }, { apiKey: "", mode: "live" })).toThrow(/apiKey.*apiId.*baseUrl/)
  })
})
