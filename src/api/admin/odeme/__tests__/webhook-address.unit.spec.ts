import { configurationWarnings, webhookAddressWarnings } from "../settings/warnings"

/**
 * Settings → Odeme shows the notifications that arrived right above its
 * warnings: what it says of the webhook URL must agree with that count.
 */
describe("what Settings says of the webhook URL", () => {
  const none = { last_webhook_at: null, webhooks_24h: 0 }
  const arrived = { last_webhook_at: "2026-11-27T10:00:00.000Z", webhooks_24h: 4 }
  const older = { last_webhook_at: "2026-11-20T10:00:00.000Z", webhooks_24h: 0 }
  const local = { mode: "sandbox" as const, backendUrl: "http://localhost:9000" }
  const url = "http://localhost:9000/odeme/webhook"

  it("in sandbox, notifications that arrived at a local http URL: only what live needs, as a note", () => {
    expect(webhookAddressWarnings(local, arrived)).toEqual([{ code: "webhook_sandbox_only", severity: "info", params: { url } }])
    // Any that ever arrived: the sandbox reaches this address, even on a quiet day.
    expect(webhookAddressWarnings(local, older)).toEqual([{ code: "webhook_sandbox_only", severity: "info", params: { url } }])
    const codes = configurationWarnings({ ...local, minimumAmountTry: undefined }, arrived).map((w) => w.code)
    expect(codes).not.toContain("webhook_not_https")
    expect(codes).not.toContain("webhook_not_public")
  })

  it("in sandbox, none arrived yet (or health unknown): a warning that none reached it", () => {
    expect(webhookAddressWarnings(local, none)).toEqual([{ code: "webhook_not_reached", severity: "warning", params: { url } }])
    expect(webhookAddressWarnings(local)).toEqual([{ code: "webhook_not_reached", severity: "warning", params: { url } }])
    // A public http address is no more deliverable in live than a local one.
    expect(webhookAddressWarnings({ mode: "sandbox", backendUrl: "http://shop.example" }, none).map((w) => w.code)).toEqual(["webhook_not_reached"])
  })

  it("in live, arrivals do not soften it: the live service delivers only to a public HTTPS address", () => {
    const live = { mode: "live" as const, backendUrl: "http://localhost:9000" }
    expect(webhookAddressWarnings(live, arrived)).toEqual([
      { code: "webhook_not_https", severity: "error", params: { url } },
      { code: "webhook_not_public", severity: "error", params: { url } },
    ])
    expect(webhookAddressWarnings({ mode: "live", backendUrl: "https://10.0.0.5" }, none).map((w) => w.code)).toEqual(["webhook_not_public"])
  })

  it("says nothing of a public HTTPS address, in either mode", () => {
    for (const mode of ["sandbox", "live"] as const) {
      expect(webhookAddressWarnings({ mode, backendUrl: "https://api.shop.example" }, none)).toEqual([])
      expect(webhookAddressWarnings({ mode, backendUrl: "https://api.shop.example" }, arrived)).toEqual([])
    }
  })
})
