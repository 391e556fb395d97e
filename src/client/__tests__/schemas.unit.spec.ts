import {
  BankAccountSchema,
  OdemeApiError,
  TransferRecordSchema,
  VerifyResultSchema,
  redact,
  zBoolLike,
  zIntLike,
  zNumberLike,
  zStringLike,
} from "../index"
import { BankGroupListResponseSchema, isVerifiedSuccessful } from "../schemas"

describe("coercing schemas", () => {
  it("zBoolLike accepts only the listed forms", () => {
    for (const v of [true, 1, "1", "true"]) expect(zBoolLike.parse(v)).toBe(true)
    for (const v of [false, 0, "0", "false"]) expect(zBoolLike.parse(v)).toBe(false)
    for (const v of ["yes", "no", "False", "TRUE", 2, -1, "", null, undefined, {}]) {
      expect(zBoolLike.safeParse(v).success).toBe(false)
    }
  })

  it("zIntLike / zNumberLike / zStringLike", () => {
    expect(zIntLike.parse("42")).toBe(42)
    expect(zIntLike.safeParse("4.2").success).toBe(false)
    expect(zIntLike.safeParse("abc").success).toBe(false)
    expect(zIntLike.safeParse("").success).toBe(false)
    expect(zNumberLike.parse("200.50")).toBe(200.5)
    expect(zNumberLike.safeParse("1e400").success).toBe(false)
    expect(zNumberLike.safeParse("12abc").success).toBe(false)
    expect(zStringLike.parse(123)).toBe("123")
    expect(zStringLike.safeParse(null).success).toBe(false)
  })

  it("TransferRecord sale_status only 0/1/2", () => {
    const base = {
      br_tracking_no: "1",
      br_name: "a",
      br_price: 1,
      br_currency: "TRY",
      br_bank_name: "b",
      br_iban: "c",
      sale_date: 1,
    }
    expect(TransferRecordSchema.parse({ ...base, sale_status: "2" }).sale_status).toBe(2)
    expect(TransferRecordSchema.safeParse({ ...base, sale_status: 3 }).success).toBe(false)
    expect(TransferRecordSchema.safeParse({ ...base, sale_status: "x" }).success).toBe(false)
  })

  it("BankAccount description defaults to empty string (also for null)", () => {
    const acc = { bta_id: 1, bta_name: "a", bta_fullname: "b", bta_iban: "c", bta_description: null }
    expect(BankAccountSchema.parse(acc).bta_description).toBe("")
  })

  it("VerifyResult requires the decision fields", () => {
    expect(VerifyResultSchema.safeParse({ official_status: "successful" }).success).toBe(false)
    expect(VerifyResultSchema.safeParse({ is_valid: true }).success).toBe(false)
    const r = VerifyResultSchema.parse({ is_valid: true, official_status: "successful", hash_match: null })
    expect(r.is_valid).toBe(true)
    expect(r.hash_match).toBeUndefined()
  })

  it("VerifyResult takes is_valid only as the spec's boolean (§4.8)", () => {
    for (const v of [1, "1", "true", 0, "0", "false", null, "yes"]) {
      expect(VerifyResultSchema.safeParse({ is_valid: v, official_status: "successful" }).success).toBe(false)
    }
    expect(VerifyResultSchema.parse({ is_valid: false, official_status: "successful" }).is_valid).toBe(false)
    // The informational booleans stay lenient: they decide nothing.
    expect(VerifyResultSchema.parse({ is_valid: true, official_status: "failed", success: "1", status_match: 0 })).toMatchObject({
      success: true,
      status_match: false,
    })
  })
})

describe("errors", () => {
  it("redact replaces raw and url-encoded forms", () => {
    expect(redact("a key/+x b key%2F%2Bx", ["key/+x"])).toBe("a [redacted] b [redacted]")
    expect(redact("nothing", ["", undefined])).toBe("nothing")
  })

  it("OdemeApiError never keeps a secret", () => {
    const secret = "sk_SECRET_do_not_leak_123"
    const err = new OdemeApiError({
      endpoint: "x",
      method: "GET",
      path: "/p",
      kind: "network",
      retryable: true,
      code: secret,
      detail: secret,
      serviceMessage: secret,
      field: secret,
      secrets: [secret],
    })
    for (const t of [String(err), JSON.stringify(err), err.stack ?? "", err.message]) expect(t).not.toContain(secret)
    expect(err.name).toBe("OdemeApiError")
    expect(err).toBeInstanceOf(Error)
  })
})

// Each coercion's edges (npm run mutate).
describe("coercions, exactly", () => {
  it("trims and signs integers and decimals that arrive as text", () => {
    expect([zIntLike.parse(" 42 "), zIntLike.parse("+5"), zIntLike.parse("-5"), zIntLike.parse(7)]).toEqual([42, 5, -5, 7])
    expect([zNumberLike.parse(" 1.5 "), zNumberLike.parse(".5"), zNumberLike.parse("5."), zNumberLike.parse("-1.25"), zNumberLike.parse(3)]).toEqual([
      1.5, 0.5, 5, -1.25, 3,
    ])
    for (const bad of ["1.2.3", ".", "+", "1 2", "0x10"]) expect(zNumberLike.safeParse(bad).success).toBe(false)
    for (const bad of ["4 2", "0x1", "1e3"]) expect(zIntLike.safeParse(bad).success).toBe(false)
  })

  it("writes finite numbers as text, nothing else", () => {
    expect(zStringLike.parse(1.5)).toBe("1.5")
    expect(zStringLike.parse("x")).toBe("x")
    for (const bad of [NaN, Infinity, true]) expect(zStringLike.safeParse(bad).success).toBe(false)
  })

  it("reads sale_status from text and null lists as empty", () => {
    const base = { br_tracking_no: 1, br_name: "a", br_price: "1.00", br_currency: "TRY", br_bank_name: "b", br_iban: "c", sale_date: "1" }
    expect(TransferRecordSchema.parse({ ...base, sale_status: " 1 " })).toMatchObject({
      sale_status: 1,
      br_tracking_no: "1",
      br_price: 1,
      sale_date: 1,
    })
    expect(TransferRecordSchema.safeParse({ ...base, sale_status: "1.0" }).success).toBe(false)
    expect(BankGroupListResponseSchema.parse({ result: null }).result).toEqual([])
    expect(BankGroupListResponseSchema.parse({ result: [{ id: "3", name: "x" }] }).result).toEqual([{ id: 3, name: "x" }])
    expect(BankAccountSchema.parse({ bta_id: 1, bta_name: "a", bta_fullname: "b", bta_iban: "c" }).bta_description).toBe("")
    expect(BankAccountSchema.parse({ bta_id: 1, bta_name: "a", bta_fullname: "b", bta_iban: "c", bta_description: "d" }).bta_description).toBe("d")
  })

  it("pays only is_valid true with official_status successful", () => {
    expect(isVerifiedSuccessful({ is_valid: true, official_status: "successful" })).toBe(true)
    expect(isVerifiedSuccessful({ is_valid: false, official_status: "successful" })).toBe(false)
    expect(isVerifiedSuccessful({ is_valid: true, official_status: "failed" })).toBe(false)
    expect(isVerifiedSuccessful({ is_valid: "true" as never, official_status: "successful" })).toBe(false)
  })
})
