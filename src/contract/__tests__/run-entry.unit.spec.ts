import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { startEmulator } from "../../emulator"
import { main } from "../run"
import { SCENARIOS } from "../scenarios"
import { SANDBOX_KEY } from "./helpers"

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
    // The callback URL a merchant needs to create transfers (§4.5 rule 2); nothing listens there.
    const emu = await startEmulator({ port: 0, webhookUrl: "http://127.0.0.1:9/webhook", webhookRetryDelaysMs: [] })
    const t = io()
    try {
      const code = await main({ ODEME_CONTRACT_BASE_URL: emu.url, ODEME_CONTRACT_API_KEY: SANDBOX_KEY, ODEME_CONTRACT_API_ID: "1001" }, t.io)
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
