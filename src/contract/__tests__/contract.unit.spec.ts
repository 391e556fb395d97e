import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { createServer, request as httpRequest, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { startEmulator, type RunningEmulator } from "../../emulator"
import { isSandboxMode, looksLikeLiveKeyMessage } from "../context"
import { countDifferences, formatReport } from "../report"
import { main, runContract } from "../run"
import { CONTRACT_CANCEL_URL, judgeCheckoutAnswer, SCENARIOS } from "../scenarios"

const SANDBOX_KEY = "sandbox_test_key_0001"
const LIVE_KEY = "live_contract_key_0009"
const LIVE_ID = 2009

async function control(emu: RunningEmulator, path: string, body?: unknown) {
  const res = await fetch(`${emu.url}/_control${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  return (await res.json()) as any
}

/**
 * A stand-in for a sandbox that answers differently: forwards to the
 * emulator and lets a test rewrite JSON answers.
 */
async function startDriftingProxy(
  upstream: string,
  rewrite: (path: string, json: any) => any
): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on("data", (c) => chunks.push(c))
    req.on("end", () => {
      const up = new URL(req.url ?? "/", upstream)
      const headers = { ...req.headers, host: up.host }
      const out = httpRequest(up, { method: req.method, headers }, (ures) => {
        const body: Buffer[] = []
        ures.on("data", (c) => body.push(c))
        ures.on("end", () => {
          let text = Buffer.concat(body).toString("utf8")
          const isJson = String(ures.headers["content-type"] ?? "").includes("json")
          if (isJson) text = JSON.stringify(rewrite(up.pathname, JSON.parse(text)))
          const h = { ...ures.headers }
          delete h["content-length"]
          res.writeHead(ures.statusCode ?? 502, h)
          res.end(text)
        })
      })
      out.on("error", () => {
        res.statusCode = 502
        res.end()
      })
      out.end(Buffer.concat(chunks))
    })
  })
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()))
  const port = (server.address() as AddressInfo).port
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r())
        server.closeAllConnections()
      }),
  }
}

describe("contract scenarios against the emulator (fidelity check)", () => {
  let emu: RunningEmulator

  beforeAll(async () => {
    emu = await startEmulator({
      port: 0,
      webhookRetryDelaysMs: [50],
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
        // The client's schema rejects the missing sale_date.
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
    const proxy = await startDriftingProxy(emu.url, (path, json) =>
      path === "/api/sale/webhook/verify" ? { ...json, mode: "api_cc_pos" } : json
    )
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

describe("live-key and checkout judgements", () => {
  it("recognises live-key texts and sandbox modes", () => {
    expect(looksLikeLiveKeyMessage('Invalid parameter "sandbox_result": only available with a sandbox API key')).toBe(true)
    expect(looksLikeLiveKeyMessage("sandbox_result is sandbox-only")).toBe(true)
    expect(looksLikeLiveKeyMessage("Bu alan sadece sandbox anahtarı ile kullanılabilir")).toBe(true)
    expect(looksLikeLiveKeyMessage("Bank transfer 123 not found")).toBe(false)
    expect(looksLikeLiveKeyMessage(undefined)).toBe(false)
    expect(isSandboxMode("sandbox")).toBe(true)
    expect(isSandboxMode("api_cc_pos")).toBe(false)
    expect(isSandboxMode("quick_checkout_fallback")).toBe(false)
  })

  const base = "https://pay.example"
  const answer = (status: number, location?: string, text = "") => ({ status, location, contentType: "text/html", text })

  it("accepts a redirect to the checkout page or a page without an error", () => {
    expect(judgeCheckoutAnswer(answer(303, "/checkout/session/0b6c3f43-3ad4-4a36-9a51-4c1d3c62f7a1"), base, CONTRACT_CANCEL_URL)).toEqual({
      accepted: true,
      how: "HTTP 303 redirect to /checkout/session/{uuid}",
    })
    expect(judgeCheckoutAnswer(answer(200, undefined, "<title>Ödeme</title><form>"), base, CONTRACT_CANCEL_URL).accepted).toBe(true)
  })

  it("does not accept an error page, a redirect to cancel_url with status=error, or a 4xx", () => {
    expect(judgeCheckoutAnswer(answer(200, undefined, "<title>Hata</title>"), base, CONTRACT_CANCEL_URL).accepted).toBe(false)
    expect(judgeCheckoutAnswer(answer(200, undefined, "<p>Geçersiz imza</p>"), base, CONTRACT_CANCEL_URL).accepted).toBe(false)
    expect(judgeCheckoutAnswer(answer(302, `${CONTRACT_CANCEL_URL}?status=error&message=x`), base, CONTRACT_CANCEL_URL).accepted).toBe(false)
    expect(judgeCheckoutAnswer(answer(302, "/checkout/error"), base, CONTRACT_CANCEL_URL).accepted).toBe(false)
    expect(judgeCheckoutAnswer(answer(302), base, CONTRACT_CANCEL_URL).accepted).toBe(false)
    expect(judgeCheckoutAnswer(answer(401, undefined, "<p>Invalid signature</p>"), base, CONTRACT_CANCEL_URL)).toEqual({
      accepted: false,
      how: "HTTP 401: Invalid signature",
    })
  })
})

describe("npm run test:contract entry (main)", () => {
  function io() {
    const out: string[] = []
    const err: string[] = []
    const dir = mkdtempSync(join(tmpdir(), "odeme-contract-"))
    return { out, err, dir, io: { out: (l: string) => out.push(l), err: (l: string) => err.push(l), cwd: dir } }
  }

  it("skips with one line and exit 0 without credentials", async () => {
    const t = io()
    expect(await main({}, t.io)).toBe(0)
    expect(t.out).toHaveLength(1)
    expect(t.out[0]).toBe(
      "contract tests skipped: no sandbox configured (set ODEME_CONTRACT_BASE_URL, ODEME_CONTRACT_API_KEY and ODEME_CONTRACT_API_ID to run them; see src/contract/README.md)"
    )
    expect(t.err).toEqual([])
    rmSync(t.dir, { recursive: true, force: true })
  })

  it("names only what is missing", async () => {
    const t = io()
    expect(await main({ ODEME_CONTRACT_BASE_URL: "http://127.0.0.1:1", ODEME_CONTRACT_API_KEY: "k" }, t.io)).toBe(0)
    expect(t.out).toHaveLength(1)
    expect(t.out[0]).toContain("(ODEME_CONTRACT_API_ID not set")
    rmSync(t.dir, { recursive: true, force: true })
  })

  it("refuses ODEME_CONTRACT_MODE=live, even with credentials", async () => {
    const t = io()
    const code = await main(
      { ODEME_CONTRACT_MODE: "live", ODEME_CONTRACT_BASE_URL: "http://127.0.0.1:1", ODEME_CONTRACT_API_KEY: "k", ODEME_CONTRACT_API_ID: "1" },
      t.io
    )
    expect(code).toBe(2)
    expect(t.err.join("\n")).toMatch(/refused: ODEME_CONTRACT_MODE=live/)
    expect(t.out).toEqual([])
    rmSync(t.dir, { recursive: true, force: true })
  })

  it("runs against the emulator, prints the table and writes contract-report.json", async () => {
    const emu = await startEmulator({ port: 0 })
    const t = io()
    try {
      const code = await main(
        { ODEME_CONTRACT_BASE_URL: emu.url, ODEME_CONTRACT_API_KEY: SANDBOX_KEY, ODEME_CONTRACT_API_ID: "1001" },
        t.io
      )
      expect(code).toBe(0)
      const report = JSON.parse(readFileSync(join(t.dir, "contract-report.json"), "utf8"))
      expect(report.outcome).toBe("passed")
      expect(t.out.join("\n")).toContain(`PASSED: ${SCENARIOS.length} passed, 0 failed, 0 skipped; 0 shape difference`)
      expect(readFileSync(join(t.dir, "contract-report.json"), "utf8")).not.toContain(SANDBOX_KEY)
    } finally {
      await emu.close()
      rmSync(t.dir, { recursive: true, force: true })
    }
  })
})
