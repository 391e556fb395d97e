import type { TransferRecord } from "../../client"
import {
  afterTransferCheck,
  answerWithExpiry,
  nextCheckDelayMs,
  transferCheckVerdict,
  transferCreatedAt,
  transferDetails,
  transferExpiresAt,
  unchangedAndAskedAgain,
} from "../transfer-check"

const HOUR = 3_600_000
const created = new Date("2026-12-01T10:00:00Z")
/** 48 hours after the creation, written out: the first test pins transferExpiresAt to it. */
const expiresAt = created.getTime() + 48 * HOUR
const before = expiresAt - 1
const at = expiresAt
const when = { before, at }

describe("a transfer's deadline and the pace of its checks", () => {
  it("expires expiryHours after the creation claim started, not after the session's row", () => {
    const row = { creation_started_at: created, created_at: new Date("2026-11-28T10:00:00Z") }
    expect(transferCreatedAt(row)).toEqual(created)
    expect(transferCreatedAt({ creation_started_at: null, created_at: created } as never)).toEqual(created)
    expect(transferExpiresAt(created, 48).getTime()).toBe(created.getTime() + 48 * HOUR)
  })

  it.each([
    [5, 60_000],
    [30, 5 * 60_000],
    [23 * 60, 15 * 60_000],
    [25 * 60, 60 * 60_000],
  ])("a transfer %i minutes old is asked again after %i ms", (ageMin, delay) => {
    expect(nextCheckDelayMs(created, created.getTime() + ageMin * 60_000)).toBe(delay)
  })

  it.each([
    [10, 5 * 60_000],
    [60, 15 * 60_000],
    [24 * 60, 60 * 60_000],
  ])("a transfer exactly %i minutes old is already at the slower pace (%i ms)", (ageMin, delay) => {
    expect(nextCheckDelayMs(created, created.getTime() + ageMin * 60_000)).toBe(delay)
  })
})

describe("transferDetails: what the record tells, over what the row kept", () => {
  const record: TransferRecord = {
    br_tracking_no: "TRK-2",
    br_name: "Ayse Yilmaz",
    br_price: 200,
    br_currency: "TRY",
    br_bank_name: "Ziraat",
    br_iban: " TR12 0006\t4000  0011 2345 6789 01\n",
    sale_status: 0,
    sale_date: 0,
  }
  const row = { tracking_no: "TRK-1", bank_name: "Garanti", iban: "TR990000", payer_name: "Old Name" } as never

  it("takes the record's tracking number, bank, payer and IBAN, the IBAN without any whitespace", () => {
    expect(transferDetails(record, row)).toEqual({
      tracking_no: "TRK-2",
      bank_name: "Ziraat",
      iban: "TR120006400000112345678901",
      payer_name: "Ayse Yilmaz",
      last_result: "sale_status 0",
      last_checked_at: expect.any(Date),
    })
  })

  it("keeps the row's details where the record leaves them empty", () => {
    const empty: TransferRecord = { ...record, br_tracking_no: "", br_name: "", br_bank_name: "", br_iban: "", sale_status: 2 }
    expect(transferDetails(empty, row)).toEqual({
      tracking_no: "TRK-1",
      bank_name: "Garanti",
      iban: "TR990000",
      payer_name: "Old Name",
      last_result: "sale_status 2",
      last_checked_at: expect.any(Date),
    })
  })
})

describe("answerWithExpiry", () => {
  it("makes a still-pending awaited transfer past its deadline expired, with the reason", () => {
    expect(answerWithExpiry({ kind: "pending" }, "awaiting_transfer", at, expiresAt, 48)).toEqual({
      kind: "expired",
      detail: "Transfer not received within 48 hours",
    })
  })

  it.each([
    ["before the deadline", { kind: "pending" } as const, "awaiting_transfer", before],
    ["a canceled transfer (asked about, never expired here)", { kind: "pending" } as const, "canceled", at],
    ["an unknown creation", { kind: "pending" } as const, "unknown", at],
    ["an answer other than pending", { kind: "failed" } as const, "awaiting_transfer", at],
  ] as const)("leaves the answer as it is for %s", (_, answer, status, now) => {
    expect(answerWithExpiry(answer, status, now, expiresAt, 48)).toBe(answer)
  })
})

describe("unchangedAndAskedAgain", () => {
  it.each([
    ["pending", "awaiting_transfer", "at", true],
    ["pending", "unknown", "at", true],
    ["pending", "canceled", "before", true],
    ["pending", "canceled", "at", false],
    ["failed", "awaiting_transfer", "before", false],
    ["expired", "awaiting_transfer", "at", false],
  ] as const)("answer %s, state %s, %s the deadline: %s", (answer, status, now, expected) => {
    expect(unchangedAndAskedAgain(answer, status, when[now], expiresAt)).toBe(expected)
  })
})

describe("afterTransferCheck", () => {
  it.each([
    ["awaiting_transfer", "pending", "at", { asksAgain: true, mayEndOrder: false }],
    ["unknown", "failed", "at", { asksAgain: true, mayEndOrder: false }],
    ["canceled", "pending", "before", { asksAgain: true, mayEndOrder: false }],
    ["canceled", "pending", "at", { asksAgain: false, mayEndOrder: true }],
    ["canceled", "failed", "before", { asksAgain: false, mayEndOrder: true }],
    ["canceled", "paid", "before", { asksAgain: false, mayEndOrder: false }],
    // only a canceled transfer waits for its deadline: one paid or in review meanwhile is not asked again while the service still says pending
    ["paid", "pending", "before", { asksAgain: false, mayEndOrder: false }],
    ["review", "pending", "before", { asksAgain: false, mayEndOrder: false }],
    ["paid", "paid", "before", { asksAgain: false, mayEndOrder: false }],
    ["failed", "failed", "before", { asksAgain: false, mayEndOrder: false }],
    ["expired", "expired", "at", { asksAgain: false, mayEndOrder: false }],
    ["review", "mismatch", "before", { asksAgain: false, mayEndOrder: false }],
  ] as const)("state %s after answer %s, %s the deadline", (status, answer, now, expected) => {
    expect(afterTransferCheck(status, answer, when[now], expiresAt)).toEqual(expected)
  })
})

describe("transferCheckVerdict", () => {
  it("names the deadline when the transfer expired", () => {
    expect(transferCheckVerdict("expired", "expired", 0, 48)).toEqual({ code: "expired", detail: "Transfer not received within 48 hours" })
  })

  it("still waits while the transfer is awaited", () => {
    expect(transferCheckVerdict("pending", "awaiting_transfer", 0, 48)).toEqual({ code: "still_waiting", detail: "still waiting for the transfer" })
  })

  it("reports the service's sale_status otherwise", () => {
    expect(transferCheckVerdict("paid", "paid", 1, 48)).toEqual({ code: "service_status", detail: "service reports sale_status 1" })
    expect(transferCheckVerdict("pending", "canceled", 0, 48)).toEqual({ code: "service_status", detail: "service reports sale_status 0" })
  })
})
