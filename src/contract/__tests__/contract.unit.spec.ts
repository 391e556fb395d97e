import { startEmulator, type RunningEmulator } from "../../emulator"
import { countDifferences, formatReport } from "../report"
import { runContract } from "../run"
import { SCENARIOS } from "../scenarios"
import { control, LIVE_ID, LIVE_KEY, SANDBOX_KEY, startDriftingProxy } from "./helpers"

describe("contract scenarios against the emulator (fidelity check)", () => {
  let emu: RunningEmulator

  beforeAll(async () => {
    emu = await startEmulator({
      port: 0,
      webhookRetryDelaysMs: [50],
      // A merchant needs an active callback URL to create transfers (§4.5 rule 2); nothing listens there.
      webhookUrl: "http://127.0.0.1:9/webhook",
      accesses: [{ apiId: LIVE_ID, apiKey: LIVE_KEY, mode: "live" }],
    })
  })
  afterAll(async () => {
    await emu.close()
  })
  beforeEach(async () => {
    await control(emu, "/reset", {})
  })

  it("passes every scenario with no difference from the expected shapes", async () => {
    const report = await runContract({ baseUrl: emu.url, apiKey: SANDBOX_KEY, apiId: 1001 })
    const failed = report.scenarios.filter((s) => s.status !== "passed")
    // Shows the table when something drifted.
    if (failed.length || report.summary.differences) console.log(formatReport(report))
    expect(failed.map((s) => `${s.id}: ${s.error ?? ""}`)).toEqual([])
    expect(report.outcome).toBe("passed")
    expect(report.scenarios.map((s) => s.id)).toEqual(SCENARIOS.map((s) => s.id))
    expect(report.summary).toEqual({
      total: SCENARIOS.length,
      passed: SCENARIOS.length,
      failed: 0,
      skipped: 0,
      refused: 0,
      differences: 0,
    })
    for (const s of report.scenarios) {
      expect(countDifferences(s)).toBe(0)
      expect(s.checks.length).toBeGreaterThan(0)
      for (const st of s.steps) {
        if (st.schema) expect(st.schema_ok).toBe(true)
      }
    }
    // The pending transfer really was moved by control?sandbox_result.
    const transfers = await control(emu, "/transfers")
    const statuses = transfers.result.map((p: any) => p.sale_status).sort()
    expect(statuses).toEqual([1, 1, 2, 2])
    expect(JSON.stringify(report)).not.toContain(SANDBOX_KEY)
  })

  it("checks the key field values, not only shapes (sale_status after sandbox_result=pending)", async () => {
    const report = await runContract({ baseUrl: emu.url, apiKey: SANDBOX_KEY, apiId: 1001 })
    const pending = report.scenarios.find((s) => s.id === "uuid_query_pending")!
    expect(pending.checks).toContainEqual({ name: "uuid: sale_status", ok: true, expected: 0, actual: 0 })
    const verify = report.scenarios.find((s) => s.id === "verify_forged_hash")!
    expect(verify.checks).toContainEqual({ name: "is_valid (forged hash)", ok: true, expected: false, actual: false })
  })

  it("reports an answer that drifted from the emulator (missing, other type, extra) and fails that scenario", async () => {
    const proxy = await startDriftingProxy(emu.url, (path, json) => {
      if (path.startsWith("/api/pay/bank_transfer/uuid/") && json.result) {
        const { sale_date: _drop, ...rest } = json.result
        return { ...json, result: { ...rest, br_price: String(rest.br_price), br_extra: "x" } }
      }
      if (path === "/api/pay/bank_transfer/bank-group/list") return { ...json, total: json.result.length }
      return json
    })
    try {
      const report = await runContract({ baseUrl: proxy.url, apiKey: SANDBOX_KEY, apiId: 1001 })
      const uuid = report.scenarios.find((s) => s.id === "uuid_query_pending")!
      expect(uuid.status).toBe("failed")
      expect(uuid.steps[0]).toMatchObject({
        missing: ["result.sale_date"],
        other_type: [{ path: "result.br_price", expected: "number", actual: "string" }],
        extra: ["result.br_extra"],
        // The contract's reading of §2.5 rejects the missing sale_date and the string price.
        schema_ok: false,
      })
      // An extra field alone is reported but does not fail the scenario.
      const groups = report.scenarios.find((s) => s.id === "bank_groups")!
      expect(groups.status).toBe("passed")
      expect(groups.steps[0].extra).toEqual(["total"])
      expect(report.outcome).toBe("failed")
      const table = formatReport(report)
      expect(table).toMatch(/uuid_query_pending\s+failed\s+result\.sale_date/)
      expect(table).toContain("other type: result.br_price is string, emulator answers number")
      expect(table).toContain("extra field (emulator lacks it): total")
    } finally {
      await proxy.close()
    }
  })

  it("refuses a live key before anything is created", async () => {
    const report = await runContract({ baseUrl: emu.url, apiKey: LIVE_KEY, apiId: LIVE_ID })
    expect(report.outcome).toBe("refused")
    expect(report.scenarios[0]).toMatchObject({ id: "sandbox_key_guard", status: "refused" })
    expect(report.stopped).toMatch(/live API key/)
    expect(report.scenarios.slice(1).every((s) => s.status === "skipped" && s.steps.length === 0)).toBe(true)
    expect((await control(emu, "/payments")).result).toEqual([])
    const requests = (await control(emu, "/requests")).result
    expect(requests.map((r: any) => r.path)).toEqual([expect.stringMatching(/^\/api\/pay\/bank_transfer\/control\//)])
    expect(JSON.stringify(report)).not.toContain(LIVE_KEY)
  })

  it("also stops when create refuses sandbox_result as a live-key feature (without the guard)", async () => {
    const report = await runContract({
      baseUrl: emu.url,
      apiKey: LIVE_KEY,
      apiId: LIVE_ID,
      scenarios: SCENARIOS.filter((s) => s.id !== "sandbox_key_guard"),
    })
    expect(report.outcome).toBe("refused")
    const refused = report.scenarios.find((s) => s.status === "refused")!
    expect(refused.id).toBe("create_transfer_successful")
    expect((await control(emu, "/payments")).result).toEqual([])
  })

  it("stops when verify answers a mode that is not sandbox-like for a sandbox transfer", async () => {
    const proxy = await startDriftingProxy(emu.url, (path, json) => (path === "/api/sale/webhook/verify" ? { ...json, mode: "api_cc_pos" } : json))
    try {
      const report = await runContract({ baseUrl: proxy.url, apiKey: SANDBOX_KEY, apiId: 1001 })
      expect(report.outcome).toBe("refused")
      const verify = report.scenarios.find((s) => s.id === "verify_forged_hash")!
      expect(verify.status).toBe("refused")
      expect(report.stopped).toMatch(/mode "api_cc_pos"/)
      const after = report.scenarios.slice(report.scenarios.indexOf(verify) + 1)
      expect(after.every((s) => s.status === "skipped" && s.steps.length === 0)).toBe(true)
      // Only the one transfer before verify was created.
      expect((await control(emu, "/payments")).result).toHaveLength(1)
      expect(formatReport(report)).toContain('STOPPED: verify answered mode "api_cc_pos"')
    } finally {
      await proxy.close()
    }
  })

  it("stops when the key is rejected", async () => {
    const report = await runContract({ baseUrl: emu.url, apiKey: "wrong_key", apiId: 1001 })
    expect(report.outcome).toBe("failed")
    expect(report.stopped).toMatch(/rejected the API key/)
    expect(report.scenarios.slice(1).every((s) => s.status === "skipped")).toBe(true)
  })
})
