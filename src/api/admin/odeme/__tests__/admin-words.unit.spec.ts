import en from "../../../../admin/i18n/json/en.json"
import tr from "../../../../admin/i18n/json/tr.json"
import { lastCheckOf } from "../last-check"

function keys(o: unknown, prefix = ""): string[] {
  if (!o || typeof o !== "object") return [prefix]
  return Object.entries(o as Record<string, unknown>).flatMap(([k, v]) => keys(v, prefix ? `${prefix}.${k}` : k))
}

describe("lastCheckOf", () => {
  it.each([
    ["sale_status 0", "service_pending", false],
    ["sale_status 1", "service_approved", false],
    ["sale_status 2", "service_rejected", false],
    ["check failed: http 404", "not_found", true],
    ["check failed: http 502", "service_http_error", true],
    ["check failed: timeout", "unreachable", true],
    ["check failed: network", "unreachable", true],
    ["check failed: invalid_response", "unreadable", true],
    ["settling failed: cart locked", "settling_failed", true],
    ["paid (verified)", "paid_verified", false],
    ["created", "created", false],
    ["something new", "other", false],
  ])("%j reads as %s", (raw, code, failed) => {
    expect(lastCheckOf(raw)).toEqual(expect.objectContaining({ code, failed }))
  })

  it("nothing before the first check", () => {
    expect(lastCheckOf(null)).toBeNull()
  })
})

describe("the Admin's words", () => {
  it("Turkish and English have the same keys", () => {
    expect(keys(tr).sort()).toEqual(keys(en).sort())
  })

  it("every code the server sends has a sentence in both languages", () => {
    for (const lang of [en, tr]) {
      const o = lang.odeme as any
      for (const code of [
        "service_pending",
        "service_approved",
        "service_rejected",
        "not_found",
        "service_http_error",
        "unreachable",
        "unreadable",
        "settling_failed",
        "paid_verified",
        "created",
      ]) {
        expect(o.lastCheck[code]).toEqual(expect.any(String))
      }
      for (const code of [
        "unknown_session",
        "no_notification",
        "notifications_checked",
        "not_found",
        "no_service_id",
        "service_error",
        "settling_failed",
        "still_waiting",
        "expired",
        "service_status",
      ]) {
        expect(o.widget.toast.results[code]).toEqual(expect.any(String))
      }
      for (const s of ["pending", "pending_authorization", "authorized", "captured", "requires_more", "error", "canceled"])
        expect(o.sessionStatuses[s]).toEqual(expect.any(String))
      for (const s of ["not_paid", "awaiting", "authorized", "completed", "canceled", "failed", "partially_captured"])
        expect(o.collectionStatuses[s]).toEqual(expect.any(String))
      for (const outcome of [
        "navigation_only",
        "unverifiable",
        "deferred",
        "paid",
        "failed",
        "rejected",
        "review",
        "duplicate_charge",
        "unknown_session",
        "unchanged",
      ]) {
        expect(o.timeline[`outcome_${outcome}`]).toEqual(expect.any(String))
      }
    }
  })
})
