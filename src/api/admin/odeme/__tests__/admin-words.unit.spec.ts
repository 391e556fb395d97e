import en from "../../../../admin/i18n/json/en.json"
import tr from "../../../../admin/i18n/json/tr.json"
import { errorText } from "../../../../admin/components/words"
import { ADMIN_ERROR_CODES } from "../../../../lib/admin-errors"
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
        "unverifiable_return",
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

describe("the admin routes' error codes", () => {
  /** i18next's `t` over one of the dictionaries, enough for errorText (keys and defaultValue). */
  const tOf = (dict: unknown) =>
    ((key: string, options?: { defaultValue?: string }) => {
      const found = key.split(".").reduce<unknown>((o, k) => (o && typeof o === "object" ? (o as Record<string, unknown>)[k] : undefined), dict)
      return typeof found === "string" ? found : (options?.defaultValue ?? key)
    }) as any

  it("every code has a sentence in both languages", () => {
    for (const lang of [en, tr]) {
      for (const code of ADMIN_ERROR_CODES) expect((lang.odeme as any).errors[code.slice("odeme.".length)]).toEqual(expect.any(String))
    }
  })

  it("a refusal reads in the user's language, from the code at the end of the message (all js-sdk keeps)", () => {
    const refusal = Object.assign(new Error("Notification odntf_1 is being processed right now; try again in a moment. [odeme.notification_busy]"), {
      status: 400,
    })
    expect(errorText(tOf(tr), refusal)).toBe(tr.odeme.errors.notification_busy)
    expect(errorText(tOf(en), refusal)).toBe(en.odeme.errors.notification_busy)
    expect(errorText(tOf(tr), { code: "odeme.note_too_short", message: "Say what was done (at least 3 characters)." })).toBe(
      tr.odeme.errors.note_too_short
    )
  })

  it("without a code: a sentence for 401/403, 5xx and no connection, else the server's message", () => {
    expect(errorText(tOf(tr), Object.assign(new Error("Unauthorized"), { status: 401 }))).toBe(tr.odeme.errors.forbidden)
    expect(errorText(tOf(tr), Object.assign(new Error("An unknown error occurred."), { status: 500 }))).toBe(tr.odeme.errors.server)
    expect(errorText(tOf(tr), new TypeError("Failed to fetch"))).toBe(tr.odeme.errors.network)
    expect(errorText(tOf(tr), Object.assign(new Error("Something new [odeme.newer_code]"), { status: 400 }))).toBe("Something new")
    expect(errorText(tOf(tr), Object.assign(new Error("Invalid request"), { status: 400 }))).toBe("Invalid request")
  })
})
