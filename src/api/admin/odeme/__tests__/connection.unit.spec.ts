import { OdemeApiError } from "../../../../client"
import { classifyServiceError, testConnection } from "../connection/classify"
import { keyModeOf } from "../../../../lib/key-mode-probe"
import { addressWarnings, configurationWarnings, healthWarnings } from "../settings/warnings"
import { isPrivateHost } from "../../../../lib/private-host"

const KEY = "sandbox_SECRET_key_123"
const sandbox = { mode: "sandbox" as const, backendUrl: "https://api.shop.example", apiKey: KEY }
const live = { ...sandbox, mode: "live" as const }

const httpError = (status: number, serviceMessage = `refused (${KEY})`) =>
  new OdemeApiError({
    endpoint: "listBankGroups",
    method: "GET",
    path: "/api/pay/bank_transfer/bank-group/list",
    kind: "http",
    retryable: false,
    status,
    serviceMessage,
    secrets: [KEY],
  })

const account = (id: number) => ({ bta_id: id, bta_name: "Banka", bta_fullname: "Mağaza", bta_iban: "TR000000000000000000000000" })

const client = (
  over: {
    groups?: () => Promise<unknown[]>
    banks?: (groupId: number) => Promise<unknown[]>
    verify?: () => Promise<{ mode?: string; is_valid: boolean; official_status: string }>
  } = {}
) => ({
  listBankGroups: jest.fn(over.groups ?? (async () => [{ id: 1, name: "Banks" }])),
  // Each group lists as many accounts as its id: group 1 one, group 2 two.
  listBanks: jest.fn(over.banks ?? (async (groupId: number) => Array.from({ length: groupId }, (_, i) => account(groupId * 10 + i)))),
  verifyNotification: jest.fn(over.verify ?? (async () => ({ is_valid: false, official_status: "pending", mode: "sandbox" }))),
})

describe("Test connection", () => {
  it("is ok with the right key of the right mode and an HTTPS webhook", async () => {
    const c = client()
    const r = await testConnection(c as any, sandbox, () => new Date("2026-11-23T10:00:00Z"))
    expect(r).toEqual({
      ok: true,
      code: "ok",
      mode: "sandbox",
      tested_at: "2026-11-23T10:00:00.000Z",
      checks: [
        { check: "api_key", status: "ok", code: "ok", params: {}, detail: null },
        { check: "bank_groups", status: "ok", code: "ok", params: { count: 1, accounts: 1 }, detail: null },
        { check: "key_mode", status: "ok", code: "ok", params: { key: "sandbox" }, detail: null },
        { check: "webhook_https", status: "ok", code: "ok", params: { url: "https://api.shop.example/odeme/webhook" }, detail: null },
      ],
    })
    // The mode probe is a verify question about no payment: harmless.
    expect(c.verifyNotification).toHaveBeenCalledWith(expect.objectContaining({ uuid: "00000000-0000-4000-8000-000000000000" }))
  })

  it.each([
    [401, "wrong_key"],
    [403, "ip_restricted"],
    [404, "wrong_base_url"],
    [500, "service_error"],
  ])("classifies HTTP %s as %s, with the service's message redacted", async (status, code) => {
    const r = await testConnection(client({ groups: async () => Promise.reject(httpError(status)) }) as any, sandbox)
    expect(r.ok).toBe(false)
    expect(r.code).toBe(code)
    expect(r.checks.find((c) => c.check === "key_mode")).toEqual(expect.objectContaining({ status: "skipped", code: "mode_unknown" }))
    expect(JSON.stringify(r)).not.toContain(KEY)
    expect(r.checks[0].detail).toContain("[redacted]")
  })

  it("says unreachable on a timeout or a network error", () => {
    for (const kind of ["timeout", "network"] as const) {
      const err = new OdemeApiError({ endpoint: "listBankGroups", method: "GET", path: "/x", kind, retryable: true, code: "ECONNREFUSED" })
      expect(classifyServiceError(err, KEY).code).toBe("unreachable")
    }
    expect(classifyServiceError(new Error(`boom ${KEY}`), KEY)).toEqual({ code: "service_error", params: {}, detail: "boom [redacted]" })
  })

  it("says wrong mode when a sandbox key is used in live mode, and the reverse", async () => {
    const sandboxKeyInLive = await testConnection(client() as any, live)
    expect(sandboxKeyInLive.code).toBe("wrong_mode")
    expect(sandboxKeyInLive.checks.find((c) => c.check === "key_mode")).toEqual(
      expect.objectContaining({ status: "failed", params: { configured: "live", key: "sandbox" } })
    )
    const liveKeyInSandbox = await testConnection(
      client({ verify: async () => ({ is_valid: false, official_status: "pending", mode: "api_cc_pos" }) }) as any,
      sandbox
    )
    expect(liveKeyInSandbox.code).toBe("wrong_mode")
    // A flow's name, answered by Quick Checkout under either key: it names no mode (so Test connection never
    // calls a sandbox key "live" and sends the merchant to set the store live with it).
    expect(keyModeOf("quick_checkout_fallback")).toBeNull()
    expect(keyModeOf("api_cc_pos")).toBe("live")
    expect(keyModeOf(" Sandbox ")).toBe("sandbox")
    expect(keyModeOf("something_new")).toBeNull()
    expect(keyModeOf(undefined)).toBeNull()
  })

  it("does not guess the mode when the answer does not say it", async () => {
    const r = await testConnection(client({ verify: async () => ({ is_valid: false, official_status: "pending" }) }) as any, sandbox)
    expect(r.ok).toBe(true)
    expect(r.checks.find((c) => c.check === "key_mode")).toEqual(expect.objectContaining({ status: "skipped", code: "mode_unknown" }))
    const flow = await testConnection(
      client({ verify: async () => ({ is_valid: false, official_status: "pending", mode: "quick_checkout_fallback" }) }) as any,
      sandbox
    )
    expect(flow.ok).toBe(true)
    expect(flow.checks.find((c) => c.check === "key_mode")).toEqual(expect.objectContaining({ status: "skipped", code: "mode_unknown" }))
  })

  it("fails a live configuration whose webhook URL is not HTTPS; only warns in sandbox", async () => {
    const liveHttp = await testConnection(
      client({ verify: async () => ({ is_valid: false, official_status: "pending", mode: "api_cc_pos" }) }) as any,
      { ...live, backendUrl: "http://api.shop.example" }
    )
    expect(liveHttp.code).toBe("webhook_not_https")
    const sandboxHttp = await testConnection(client() as any, { ...sandbox, backendUrl: "http://localhost:9000" })
    expect(sandboxHttp.ok).toBe(true)
    expect(sandboxHttp.checks.find((c) => c.check === "webhook_https")?.status).toBe("warning")
  })

  it("warns when the service lists no bank group (no account to offer for transfers)", async () => {
    const r = await testConnection(client({ groups: async () => [] }) as any, sandbox)
    expect(r.checks.find((c) => c.check === "bank_groups")).toEqual(expect.objectContaining({ status: "warning", code: "no_bank_groups" }))
  })

  it("fails when transfer.bankGroupId is not one of the service's groups: the storefront would offer no account", async () => {
    const groups = async () => [
      { id: 1, name: "Banks" },
      { id: 2, name: "More banks" },
    ]
    const wrong = await testConnection(client({ groups }) as any, { ...sandbox, transfer: { bankGroupId: 7 } })
    expect(wrong.ok).toBe(false)
    expect(wrong.checks.find((c) => c.check === "bank_groups")).toEqual({
      check: "bank_groups",
      status: "failed",
      code: "bank_group_unknown",
      params: { id: 7, ids: "1, 2" },
      detail: null,
    })
    const right = await testConnection(client({ groups }) as any, { ...sandbox, transfer: { bankGroupId: 2 } })
    expect(right.checks.find((c) => c.check === "bank_groups")).toEqual(
      expect.objectContaining({ status: "ok", code: "ok", params: { count: 2, accounts: 2, group: 2 } })
    )
  })

  it("counts the accounts checkout offers beside the groups: those of every group, or of the configured one", async () => {
    const groups = async () => [
      { id: 1, name: "Banks" },
      { id: 2, name: "More banks" },
    ]
    const c = client({ groups })
    const all = await testConnection(c as any, sandbox)
    expect(all.checks.find((x) => x.check === "bank_groups")).toEqual(expect.objectContaining({ status: "ok", params: { count: 2, accounts: 3 } }))
    expect(c.listBanks.mock.calls).toEqual([[1], [2]])
  })

  it("warns when the groups hold no account, and fails, redacted, when their accounts cannot be listed", async () => {
    const empty = await testConnection(client({ banks: async () => [] }) as any, sandbox)
    expect(empty.checks.find((c) => c.check === "bank_groups")).toEqual(
      expect.objectContaining({ status: "warning", code: "no_bank_groups", params: { count: 1, accounts: 0 } })
    )
    const failing = await testConnection(client({ banks: async () => Promise.reject(httpError(500)) }) as any, sandbox)
    expect(failing.ok).toBe(false)
    expect(failing.checks.find((c) => c.check === "bank_groups")).toEqual(
      expect.objectContaining({ status: "failed", code: "service_error", params: { status: 500 } })
    )
    expect(JSON.stringify(failing)).not.toContain(KEY)
  })
})

describe("configuration warnings", () => {
  const codes = (o: Parameters<typeof configurationWarnings>[0]) => configurationWarnings(o).map((w) => `${w.severity}:${w.code}`)

  it("in sandbox on localhost before any notification: not reached yet (a warning), api_ip advice, sandbox", () => {
    expect(codes({ mode: "sandbox", backendUrl: "http://localhost:9000", minimumAmountTry: undefined })).toEqual([
      "warning:webhook_not_reached",
      "info:api_ip_quick_checkout",
      "info:sandbox_mode",
    ])
  })

  it("in live: errors for a webhook the service cannot reach, advice on keys and the minimum", () => {
    expect(codes({ mode: "live", backendUrl: "http://localhost:9000", minimumAmountTry: "10" })).toEqual([
      "error:webhook_not_https",
      "error:webhook_not_public",
      "info:api_ip_quick_checkout",
      "info:live_keys",
    ])
    expect(codes({ mode: "live", backendUrl: "https://10.0.0.5", minimumAmountTry: undefined })).toEqual([
      "error:webhook_not_public",
      "info:api_ip_quick_checkout",
      "info:live_keys",
      "warning:live_minimum_not_set",
    ])
    expect(codes({ mode: "live", backendUrl: "https://api.shop.example", minimumAmountTry: "10" })).toEqual([
      "info:api_ip_quick_checkout",
      "info:live_keys",
    ])
  })

  it("says, as an error, that currency variant A without exchange rates would send every USD or EUR card payment to review", () => {
    const o = { mode: "sandbox" as const, backendUrl: "https://api.shop.example", minimumAmountTry: undefined }
    expect(codes({ ...o, checkout: { currencyVariant: "A" }, exchangeRatesTry: {} })).toContain("error:variant_a_without_rates")
    const some = configurationWarnings({ ...o, checkout: { currencyVariant: "A" }, exchangeRatesTry: { USD: "40" } })
    expect(some).toContainEqual({ code: "variant_a_without_rates", severity: "warning", params: { currencies: "EUR, GBP" } })
    const all = { USD: "40", EUR: "44", GBP: "52" }
    expect(codes({ ...o, checkout: { currencyVariant: "A" }, exchangeRatesTry: all }).join()).not.toContain("variant_a_without_rates")
    expect(codes({ ...o, checkout: { currencyVariant: "B" }, exchangeRatesTry: {} })).not.toContain("error:variant_a_without_rates")
  })

  it("says customers are reported with one address: sessions through a proxy that is not trusted, a private address in live mode", () => {
    const none = { proxiedAt: null, privateAddress: null }
    const proxied = { proxiedAt: "2026-11-27T10:00:00.000Z", privateAddress: "10.0.0.7" }
    expect(addressWarnings(none, { mode: "live", trustProxy: false })).toEqual([])
    expect(addressWarnings(proxied, { mode: "live", trustProxy: false })).toEqual([
      { code: "proxy_not_trusted", severity: "warning", params: { at: "2026-11-27T10:00:00.000Z" } },
      { code: "customer_address_private", severity: "warning", params: { ip: "10.0.0.7" } },
    ])
    expect(addressWarnings(proxied, { mode: "live", trustProxy: true }).map((w) => w.code)).toEqual(["customer_address_private"])
    expect(addressWarnings(proxied, { mode: "sandbox", trustProxy: false }).map((w) => w.code)).toEqual(["proxy_not_trusted"])
  })

  it("says when transfers have waited over an hour for a check nobody runs", () => {
    const health = { unconfirmed_returns: 0, last_webhook_at: null }
    expect(healthWarnings(health, sandbox)).toEqual([])
    expect(healthWarnings({ ...health, overdue_transfer_checks: 3 }, sandbox)).toEqual([
      { code: "transfer_checks_overdue", severity: "warning", params: { count: "3" } },
    ])
  })

  it("knows which hosts the internet cannot reach", () => {
    for (const h of [
      "localhost",
      "127.0.0.1",
      "10.1.2.3",
      "172.16.0.1",
      "192.168.1.1",
      "[::1]",
      "shop.local",
      "100.64.0.1",
      "fd12:3456::1",
      "fe80::1",
    ]) {
      expect(isPrivateHost(h)).toBe(true)
    }
    for (const h of ["api.shop.example", "8.8.8.8", "172.32.0.1", "100.128.0.1", "2001:db8::1", "[2606:4700::1111]"])
      expect(isPrivateHost(h)).toBe(false)
  })
})

describe("webhook health warnings", () => {
  const o = { backendUrl: "https://api.shop.example" }
  const health = { unconfirmed_returns: 0, last_webhook_at: null }

  it("none while notifications arrive on the plugin's route", () => {
    expect(healthWarnings({ ...health, medusa_hook_24h: 0 }, o)).toEqual([])
  })

  it("names the plugin's URL when notifications came to Medusa's generic hook route", () => {
    expect(healthWarnings({ ...health, medusa_hook_24h: 3 }, o)).toEqual([
      { code: "webhooks_on_medusa_hook", severity: "warning", params: { url: "https://api.shop.example/odeme/webhook", count: "3" } },
    ])
  })

  it("says both when returns are unconfirmed too", () => {
    expect(healthWarnings({ ...health, unconfirmed_returns: 2, medusa_hook_24h: 1 }, o).map((w) => w.code)).toEqual([
      "webhooks_not_arriving",
      "webhooks_on_medusa_hook",
    ])
  })
})
