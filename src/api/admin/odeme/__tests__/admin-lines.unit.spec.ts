import i18next, { type TFunction } from "i18next"
import en from "../../../../admin/i18n/json/en.json"
import tr from "../../../../admin/i18n/json/tr.json"
import { attentionWho, checkToast, connectionText, lastCheckLabel, timelineText } from "../../../../admin/components/words"
import type { TimelineEvent } from "../timeline"
import { customerOf } from "../customer"
import { paymentTimeline } from "../timeline"

/**
 * The lines a merchant reads in the Admin, through the i18next the dashboard
 * runs (plurals and placeholders as the browser resolves them).
 */
function tIn(lng: "en" | "tr"): TFunction {
  const i18n = i18next.createInstance()
  void i18n.init({
    lng,
    resources: { en: { translation: en }, tr: { translation: tr } },
    initImmediate: false,
    interpolation: { escapeValue: false },
  })
  return i18n.t
}
const T = { en: tIn("en"), tr: tIn("tr") }

const event = (e: Partial<TimelineEvent>): TimelineEvent => ({
  at: "2026-11-27T10:00:00.000Z",
  kind: "received",
  source: "webhook",
  code: "received",
  params: {},
  detail: null,
  ...e,
})

describe("the timeline's lines", () => {
  it("calls a customer's return from the payment page a return, not a notification", () => {
    const back = event({ source: "return", params: { status: "successful" } })
    expect(timelineText(T.tr, back)).toBe("Müşteri ödeme sayfasından döndü (ödeme sayfasına göre: başarılı)")
    expect(timelineText(T.en, back)).toBe("Customer returned from the payment page (the page said: successful)")
    expect(timelineText(T.tr, event({ params: { status: "successful" } }))).toBe("Bildirim alındı (durum başarılı)")
  })

  const row = {
    session_id: "payses_1",
    provider: "odeme-transfer",
    flow: "transfer_api" as const,
    mode: "sandbox" as const,
    amount: "300.00",
    currency: "TRY",
    status: "awaiting_transfer",
    service_uuid: "2de2c281-0000-4000-8000-000000000000",
    tracking_no: null,
    payer_name: null,
    bank_name: null,
    account_holder: null,
    iban: null,
    charged_amount: null,
    charged_currency: null,
    next_check_at: null,
    review_reason: null,
  }
  const checkLine = (lng: "en" | "tr", over: { check_attempts: number; last_result: string }) => {
    const [e] = paymentTimeline({ ...row, ...over, last_checked_at: "2026-11-27T10:00:00.000Z" }, [])
    return timelineText(T[lng], e)
  }

  it('before the first check, the status read from the service is no "last check (0 checks)"', () => {
    expect(checkLine("tr", { check_attempts: 0, last_result: "sale_status 0" })).toBe("Hizmetten durum okundu — hizmete göre: henüz ödenmedi")
    expect(checkLine("en", { check_attempts: 0, last_result: "sale_status 0" })).toBe("Status read from the service — the service says: not paid yet")
    for (const lng of ["en", "tr"] as const) expect(checkLine(lng, { check_attempts: 0, last_result: "sale_status 0" })).not.toMatch(/\b0\b/)
  })

  it("counts checks once there are some, says a check that got no answer failed, and a creation is a creation", () => {
    expect(checkLine("tr", { check_attempts: 2, last_result: "sale_status 0" })).toBe(
      "Son durum kontrolü (şimdiye kadar 2 kontrol): hizmete göre: henüz ödenmedi"
    )
    expect(checkLine("en", { check_attempts: 1, last_result: "sale_status 1" })).toBe(
      "Last status check (1 check so far): the service says: approved"
    )
    expect(checkLine("tr", { check_attempts: 0, last_result: "check failed: timeout" })).toBe("Durum kontrolü başarısız: ödeme hizmetine ulaşılamadı")
    expect(checkLine("en", { check_attempts: 3, last_result: "check failed: http 404" })).toBe(
      "Status check failed: the payment service does not know this payment (404)"
    )
    expect(checkLine("tr", { check_attempts: 0, last_result: "created" })).toBe("Havale hizmette oluşturuldu")
  })

  it("labels the drawer's status line a check only after one", () => {
    expect(lastCheckLabel(T.tr, { check_attempts: 0, last_check: { code: "service_pending", failed: false, params: {} } })).toBe("Hizmetteki durum")
    expect(lastCheckLabel(T.tr, { check_attempts: 0, last_check: { code: "unreachable", failed: true, params: {} } })).toBe("Son kontrol")
    expect(lastCheckLabel(T.en, { check_attempts: 1, last_check: { code: "service_pending", failed: false, params: {} } })).toBe("Last check")
  })
})

describe("a needs-attention item's line", () => {
  it("names the customer, the e-mail and the amount in one line", () => {
    const item = { customer: { name: "Ayşe Yılmaz", email: "ayse@example.com" }, amount: "300.00", currency: "TRY" }
    const line = attentionWho(item, "tr-TR")
    expect(line).toMatch(/^Ayşe Yılmaz · ayse@example\.com · .*300,00/)
    expect(attentionWho({ customer: { name: null, email: "ayse@example.com" }, amount: null, currency: null })).toBe("ayse@example.com")
    expect(attentionWho({ customer: null, amount: null, currency: null })).toBe("")
  })

  it("takes the payer's name from the billing address, then the account, then the shipping address; the e-mail of the cart or order", () => {
    expect(
      customerOf({
        email: "ayse@example.com",
        customer: { first_name: "Ayşe", last_name: "Kaya", email: "hesap@example.com" },
        billing_address: { first_name: "Ayşe", last_name: "Yılmaz" },
        shipping_address: { first_name: "Deniz", last_name: "Aksoy" },
      })
    ).toEqual({ name: "Ayşe Yılmaz", email: "ayse@example.com" })
    expect(customerOf({ email: null, customer: { first_name: "Ayşe", last_name: null, email: "hesap@example.com" }, billing_address: null })).toEqual(
      {
        name: "Ayşe",
        email: "hesap@example.com",
      }
    )
    expect(
      customerOf({ email: " ", billing_address: { first_name: " ", last_name: null }, shipping_address: { first_name: "Deniz", last_name: "Aksoy" } })
    ).toEqual({
      name: "Deniz Aksoy",
      email: null,
    })
    expect(customerOf({ email: null, customer: null })).toBeNull()
    expect(customerOf(undefined)).toBeNull()
  })

  it("Ask Odeme now: a one-line title for the toast, the sentence for the item", () => {
    const shown = checkToast(T.tr, { session_id: "payses_1", state: "awaiting_transfer", changed: false, code: "still_waiting" })
    expect(shown).toEqual({ kind: "info", title: "Değişiklik yok", description: "Hâlâ bekleniyor: havale henüz gelmedi." })
    expect(shown.title).not.toContain("\n")
  })
})

describe("Test connection's bank line", () => {
  const ok = (params: Record<string, string | number>) => ({
    check: "bank_groups" as const,
    status: "ok" as const,
    code: "ok" as const,
    params,
    detail: null,
  })

  it("says the groups and the accounts checkout offers", () => {
    expect(connectionText(T.tr, ok({ count: 2, accounts: 5 }))).toBe("2 banka grubu, ödeme adımında 5 banka hesabı sunuluyor")
    expect(connectionText(T.en, ok({ count: 2, accounts: 5 }))).toBe("2 bank groups, 5 accounts offered at checkout")
    expect(connectionText(T.en, ok({ count: 1, accounts: 1 }))).toBe("1 bank group, 1 account offered at checkout")
    expect(connectionText(T.tr, ok({ count: 2, accounts: 3, group: 2 }))).toBe(
      "2 banka grubu, ödeme adımında 2 numaralı grubun 3 banka hesabı sunuluyor"
    )
    expect(connectionText(T.en, ok({ count: 2, accounts: 3, group: 2 }))).toBe("2 bank groups, 3 accounts of group 2 offered at checkout")
  })
})
