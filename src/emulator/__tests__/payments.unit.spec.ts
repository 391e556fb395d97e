import type { EmulatorContext } from "../context"
import { BANK_ACCOUNTS, MESSAGES } from "../fixtures"
import { attachTransfer, createPayment, finalize, matchFastTransfer, saleStatus, transferRecord } from "../payments"
import { buildConfig, EmulatorState } from "../state"
import type { Payment } from "../types"

// The emulator's transfer states (§3.1, §2.5) without HTTP, each rule exactly (npm run mutate).
function context() {
  const notified: Array<{ uuid: string; body: any }> = []
  const logged: string[] = []
  const ctx = {
    state: new EmulatorState(buildConfig({ hashSecret: "s" }, "http://emu.test")),
    webhooks: { notify: (uuid: string, body: unknown) => notified.push({ uuid, body }) },
    faults: {},
    log: (line: string) => logged.push(line),
  } as unknown as EmulatorContext
  return { ctx, notified, logged }
}

const transfer = (ctx: EmulatorContext, over: Partial<Payment> = {}, name = "Ayşe Yılmaz") => {
  const p = createPayment(ctx, {
    kind: "bank_transfer_api",
    method: "bank_transfer",
    mode: "live",
    api_id: 1,
    order_id: "o1",
    amount: "150",
    currency: "TRY",
    ...over,
  } as never)
  attachTransfer(p, BANK_ACCOUNTS[0], name, { client_ip: "203.0.113.7" })
  return p
}

describe("emulator payments", () => {
  it("creates a pending payment with a two-decimal amount, stored by uuid", () => {
    const { ctx } = context()
    const p = transfer(ctx)
    expect(p).toMatchObject({ status: "pending", amount: "150.00", order_id: "o1", hashes: {} })
    expect(p.uuid).toMatch(/^[0-9a-f-]{36}$/)
    expect(ctx.state.payments.get(p.uuid)).toBe(p)
    expect(p.transfer).toMatchObject({
      br_name: "Ayşe Yılmaz",
      bank_id: BANK_ACCOUNTS[0].bta_id,
      br_iban: BANK_ACCOUNTS[0].bta_iban,
      client_ip: "203.0.113.7",
    })
  })

  it("writes the §2.5 record with sale_status 0, 1, 2", () => {
    const { ctx } = context()
    const p = transfer(ctx)
    expect(transferRecord(p)).toEqual({
      br_tracking_no: p.transfer!.br_tracking_no,
      br_name: "Ayşe Yılmaz",
      br_price: 150,
      br_currency: "TRY",
      br_bank_name: BANK_ACCOUNTS[0].bta_name,
      br_iban: BANK_ACCOUNTS[0].bta_iban,
      sale_status: 0,
      sale_date: p.transfer!.sale_date,
    })
    expect(saleStatus({ ...p, status: "successful" })).toBe(1)
    expect(saleStatus({ ...p, status: "failed" })).toBe(2)
    expect(saleStatus({ ...p, status: "pending" })).toBe(0)
  })

  it("finalizes a pending payment once, with its notification and a failure message", () => {
    const { ctx, notified } = context()
    const p = transfer(ctx)
    expect(finalize(ctx, p, "failed")).toBe(true)
    expect(p).toMatchObject({ status: "failed", failure_message: MESSAGES.transferRejected })
    expect(p.completed_at).toBe(p.updated_at)
    expect(notified).toEqual([{ uuid: p.uuid, body: expect.objectContaining({ status: "failed", type: "bank_transfer", amount: 150 }) }])
    expect(finalize(ctx, p, "successful")).toBe(false)
    expect(p.status).toBe("failed")
    expect(notified).toHaveLength(1)
  })

  it("a card payment without a method becomes credit_card; its failure message is the card's unless given", () => {
    const { ctx, notified } = context()
    const card = createPayment(ctx, {
      kind: "quick_checkout",
      method: null,
      mode: "sandbox",
      api_id: 1,
      order_id: "c",
      amount: "10",
      currency: "TRY",
    } as never)
    finalize(ctx, card, "failed")
    expect(card).toMatchObject({ method: "credit_card", failure_message: MESSAGES.cardFailed })
    expect(notified[0].body.type).toBe("credit_card")
    const other = createPayment(ctx, {
      kind: "quick_checkout",
      method: null,
      mode: "sandbox",
      api_id: 1,
      order_id: "d",
      amount: "10",
      currency: "TRY",
    } as never)
    finalize(ctx, other, "failed", { method: "bank_transfer", message: "nope" })
    expect(other).toMatchObject({ method: "bank_transfer", failure_message: "nope" })
    const ok = createPayment(ctx, {
      kind: "quick_checkout",
      method: null,
      mode: "sandbox",
      api_id: 1,
      order_id: "e",
      amount: "10",
      currency: "TRY",
    } as never)
    finalize(ctx, ok, "successful")
    expect(ok.failure_message).toBeUndefined()
  })

  it("matches a FAST transfer to the oldest pending live transfer with the same name, amount and currency", () => {
    const { ctx } = context()
    const first = transfer(ctx, {}, "Mehmet  Öz")
    const second = transfer(ctx, {}, "Mehmet Öz")
    second.created_at = new Date(Date.parse(first.created_at) + 1000).toISOString()
    const sandbox = transfer(ctx, { mode: "sandbox" }, "Mehmet Öz")
    sandbox.created_at = new Date(Date.parse(first.created_at) - 1000).toISOString()
    expect(matchFastTransfer(ctx, "  mehmet öz ", "150.00", "TRY")).toBe(first)
    expect(matchFastTransfer(ctx, "Mehmet Öz", "150.01", "TRY")).toBeUndefined()
    expect(matchFastTransfer(ctx, "Mehmet Öz", "150.00", "USD")).toBeUndefined()
    expect(matchFastTransfer(ctx, "Ali Veli", "150.00", "TRY")).toBeUndefined()
    finalize(ctx, first, "successful")
    expect(matchFastTransfer(ctx, "Mehmet Öz", "150", "TRY")).toBe(second)
    // Turkish casing: i and İ are one letter's two cases.
    const ilker = transfer(ctx, { amount: "9" }, "İlker")
    expect(matchFastTransfer(ctx, "ilker", "9.00", "TRY")).toBe(ilker)
  })

  it("a card payment (no transfer record) is never matched", () => {
    const { ctx } = context()
    createPayment(ctx, { kind: "card_api", method: "credit_card", mode: "live", api_id: 1, order_id: "c", amount: "5", currency: "TRY" } as never)
    expect(matchFastTransfer(ctx, "x", "5.00", "TRY")).toBeUndefined()
  })
})

// Survivors of `npm run mutate` on payments.ts (2026-11-26), one by one.
describe("emulator payments, exactly", () => {
  it("logs each payment's creation and final status", () => {
    const { ctx, logged } = context()
    const p = transfer(ctx)
    finalize(ctx, p, "successful")
    expect(logged).toEqual([`payment ${p.uuid} created (bank_transfer_api, live, order o1, 150.00 TRY)`, `payment ${p.uuid} -> successful`])
  })

  it("dates a transfer record in unix seconds", () => {
    const { ctx } = context()
    const before = Math.floor(Date.now() / 1000)
    const p = transfer(ctx)
    const after = Math.floor(Date.now() / 1000)
    expect(p.transfer!.sale_date).toBeGreaterThanOrEqual(before)
    expect(p.transfer!.sale_date).toBeLessThanOrEqual(after)
  })

  it("keeps the method a payment already has, whatever finalize is told", () => {
    const { ctx } = context()
    const p = transfer(ctx)
    finalize(ctx, p, "failed", { method: "credit_card" })
    expect(p).toMatchObject({ method: "bank_transfer", failure_message: MESSAGES.transferRejected })
  })

  it("compares names in capitals, as a bank writes them, and keeps the space between words", () => {
    const { ctx } = context()
    const p = transfer(ctx, {}, "Großmann Öz")
    expect(matchFastTransfer(ctx, "GROSSMANN ÖZ", "150.00", "TRY")).toBe(p)
    expect(matchFastTransfer(ctx, "GroßmannÖz", "150.00", "TRY")).toBeUndefined()
  })

  it("picks the oldest by creation time, not the first stored", () => {
    const { ctx } = context()
    const stored = transfer(ctx, {}, "Ali Veli")
    const older = transfer(ctx, {}, "Ali Veli")
    older.created_at = new Date(Date.parse(stored.created_at) - 1000).toISOString()
    expect(matchFastTransfer(ctx, "Ali Veli", "150.00", "TRY")).toBe(older)
  })
})
