/**
 * The Admin's settings page and its "Test connection" button: what to enter
 * in the merchant panel, and each way the service can refuse the plugin.
 */
import { ContainerRegistrationKeys, generateEntityId } from "@medusajs/framework/utils"
import { odemeModule } from "../../../src/modules/odeme/resolve"
import { adminClient } from "../../utils/admin"
import type { SuiteContext } from "../../utils/environment"

export function adminSettingsSuite({ env, api, getContainer }: SuiteContext) {
  describe("Admin settings and Test connection", () => {
    // A fresh admin before each test; every admin response of this file is checked for the key.
    const { get, post } = adminClient(api, getContainer, { apiKey: () => env.emulator.apiKey, minResponses: 6 })

    beforeEach(async () => {
      await env.emulator.control("POST", "/_control/reset")
    })

    describe("GET /admin/odeme/settings", () => {
      it("shows the URLs to enter in the merchant panel and warnings as codes, never the key", async () => {
        const res = await get("/admin/odeme/settings")
        expect(res.status).toBe(200)
        expect(res.data).toEqual(
          expect.objectContaining({
            mode: "sandbox",
            sandbox: true,
            base_url: env.emulator.url.replace(/\/+$/, ""),
            webhook_url: `${env.backendUrl}/odeme/webhook`,
            return_urls: [
              `${env.backendUrl}/odeme/return/{session_id}/success/{proof}`,
              `${env.backendUrl}/odeme/return/{session_id}/cancel/{proof}`,
            ],
            storefront_origins: expect.arrayContaining(["http://localhost:8000"]),
            checkout_description: "Sipariş ödemesi {order}",
          })
        )
        expect(res.data.warnings).toEqual(
          expect.arrayContaining([
            { code: "api_ip_quick_checkout", severity: "info", params: { value: "0.0.0.0" } },
            // Sandbox on http://localhost, and no notification has arrived yet.
            { code: "webhook_not_reached", severity: "warning", params: { url: `${env.backendUrl}/odeme/webhook` } },
            expect.objectContaining({ code: "sandbox_mode" }),
          ])
        )
        expect(res.data.webhook_health).toEqual(expect.objectContaining({ last_webhook_at: null, webhooks_24h: 0 }))
        // Codes only: the Admin translates them.
        for (const w of res.data.warnings) expect(Object.keys(w).sort()).toEqual(["code", "params", "severity"])
        expect(JSON.stringify(res.data)).not.toMatch(/api_?key/i)
      })

      it("once a notification has arrived, says the sandbox reaches the URL and only what live needs, not that it cannot", async () => {
        const db = getContainer().resolve(ContainerRegistrationKeys.PG_CONNECTION)
        await db("odeme_notification").insert({
          id: generateEntityId(undefined, "odntf"),
          source: "webhook",
          dedupe_key: "n:settings-arrival:successful",
          session_id: null,
          status: "successful",
          payload: JSON.stringify({ order_id: "payses_settings", status: "successful" }),
          state: "done",
          outcome: "unknown_session",
        })
        const res = await get("/admin/odeme/settings")
        expect(res.data.webhook_health).toEqual(expect.objectContaining({ webhooks_24h: 1, last_webhook_at: expect.any(String) }))
        const codes = res.data.warnings.map((w: any) => w.code)
        expect(res.data.warnings).toContainEqual({
          code: "webhook_sandbox_only",
          severity: "info",
          params: { url: `${env.backendUrl}/odeme/webhook` },
        })
        for (const gone of ["webhook_not_https", "webhook_not_public", "webhook_not_reached"]) expect(codes).not.toContain(gone)
      })
    })

    describe("POST /admin/odeme/connection (Test connection)", () => {
      const checkOf = (data: any, name: string) => data.checks.find((c: any) => c.check === name)

      afterEach(async () => {
        await env.emulator.control("POST", "/_control/config", { mode: "sandbox", apiIp: "0.0.0.0" })
      })

      it("reaches the service with the configured key of the configured mode", async () => {
        const res = await post("/admin/odeme/connection")
        expect(res.status).toBe(200)
        expect(res.data).toEqual(expect.objectContaining({ mode: "sandbox", tested_at: expect.any(String) }))
        expect(checkOf(res.data, "api_key")).toEqual(expect.objectContaining({ status: "ok", code: "ok" }))
        // The groups, and the accounts the store's checkout lists from them.
        const offered = await odemeModule(getContainer()).banks.accounts()
        expect(offered.length).toBeGreaterThan(0)
        expect(checkOf(res.data, "bank_groups")).toEqual(
          expect.objectContaining({ status: "ok", params: { count: expect.any(Number), accounts: offered.length } })
        )
        expect(checkOf(res.data, "key_mode")).toEqual(expect.objectContaining({ status: "ok", params: { key: "sandbox" } }))
        // Sandbox on http://localhost: a warning, not a failure.
        expect(checkOf(res.data, "webhook_https")).toEqual(expect.objectContaining({ status: "warning", code: "webhook_not_https" }))
        expect(res.data).toEqual(expect.objectContaining({ ok: true, code: "ok" }))
      })

      it("says IP restriction when api_ip does not allow this server (403)", async () => {
        await env.emulator.control("POST", "/_control/config", { apiIp: "203.0.113.9" })
        const res = await post("/admin/odeme/connection")
        expect(res.status).toBe(200)
        expect(res.data).toEqual(expect.objectContaining({ ok: false, code: "ip_restricted" }))
        expect(checkOf(res.data, "api_key")).toEqual(expect.objectContaining({ status: "failed", code: "ip_restricted", params: { status: 403 } }))
        expect(checkOf(res.data, "key_mode")).toEqual(expect.objectContaining({ status: "skipped" }))
      })

      it("says wrong mode when the key is a live key and the plugin is in sandbox", async () => {
        await env.emulator.control("POST", "/_control/config", { mode: "live" })
        const res = await post("/admin/odeme/connection")
        expect(res.data).toEqual(expect.objectContaining({ ok: false, code: "wrong_mode" }))
        expect(checkOf(res.data, "key_mode")).toEqual(expect.objectContaining({ status: "failed", params: { configured: "sandbox", key: "live" } }))
      })

      it("says service error when the service answers 500, and unreachable when it does not answer", async () => {
        await env.emulator.control("POST", "/_control/faults", { endpoint: "bank_groups", mode: "error500", count: 5 })
        const failing = await post("/admin/odeme/connection")
        expect(failing.data).toEqual(expect.objectContaining({ ok: false, code: "service_error" }))
        expect(checkOf(failing.data, "api_key").params).toEqual({ status: 500 })

        await env.emulator.control("POST", "/_control/reset")
        await env.emulator.control("POST", "/_control/faults", { endpoint: "bank_groups", mode: "hang", count: 1 })
        const silent = await post("/admin/odeme/connection")
        expect(silent.data).toEqual(expect.objectContaining({ ok: false, code: "unreachable" }))
        expect(JSON.stringify(silent.data) + JSON.stringify(failing.data)).not.toContain(env.emulator.apiKey)
      })
    })
  })
}
