import { SPEC_ENDPOINTS, specPath } from "../spec-endpoints"
import { CreateTransferAnswer, sameAmount, TransferRecordAnswer, VerifyAnswer } from "../spec-schemas"

/** The contract judges answers with its own reading of the spec, not the client's lenient schemas. */
describe("the contract's reading of the spec", () => {
  const record = {
    br_tracking_no: "1700000000123456",
    br_name: "Contract Test",
    br_price: 150,
    br_currency: "TRY",
    br_bank_name: "Akbank",
    br_iban: "TR59 0004 6007 8888 8000 1234 56",
    sale_status: 1,
    sale_date: 1700000000,
  }

  it("accepts the §2.5 record and extra fields, refuses other types without coercing them", () => {
    expect(TransferRecordAnswer.safeParse({ result: { ...record, br_note: "x" } }).success).toBe(true)
    expect(TransferRecordAnswer.safeParse({ result: { ...record, br_price: "150.00" } }).success).toBe(false)
    expect(TransferRecordAnswer.safeParse({ result: { ...record, sale_status: "1" } }).success).toBe(false)
    expect(TransferRecordAnswer.safeParse({ result: { ...record, sale_status: 3 } }).success).toBe(false)
    const { sale_date: _dropped, ...withoutDate } = record
    expect(TransferRecordAnswer.safeParse({ result: withoutDate }).success).toBe(false)
  })

  it("wants payment_id in UUID format (§2.5) and every §4.8 field typed as listed", () => {
    const created = { message: "successful", payment_id: "0b6c3f43-3ad4-4a36-9a51-4c1d3c62f7a1", order_id: "o-1" }
    expect(CreateTransferAnswer.safeParse(created).success).toBe(true)
    expect(CreateTransferAnswer.safeParse({ ...created, payment_id: "12345" }).success).toBe(false)
    const verify = {
      success: true,
      is_valid: false,
      payment_confirmed: true,
      official_status: "successful",
      status_match: true,
      hash_match: false,
      order_id: "o-1",
      uuid: created.payment_id,
      mode: "sandbox",
    }
    expect(VerifyAnswer.safeParse(verify).success).toBe(true)
    expect(VerifyAnswer.safeParse({ ...verify, is_valid: "0" }).success).toBe(false)
    const { hash_match: _dropped, ...withoutHashMatch } = verify
    expect(VerifyAnswer.safeParse(withoutHashMatch).success).toBe(false)
  })

  it("compares amounts as decimal text", () => {
    for (const same of [150, "150", "150.00", "150.0", "0150.00"]) expect(sameAmount(same, "150.00")).toBe(true)
    for (const other of [150.01, "150.01", "15", "1500", "abc", null, undefined, Number.NaN]) expect(sameAmount(other, "150.00")).toBe(false)
  })

  it("fills path templates with encoded values and refuses a missing one", () => {
    expect(specPath(SPEC_ENDPOINTS.byUuid, { uuid: "a/b c" })).toBe("/api/pay/bank_transfer/uuid/a%2Fb%20c")
    expect(specPath(SPEC_ENDPOINTS.banks, { bank_group_id: 2 })).toBe("/api/pay/bank_transfer/get/banks/2")
    expect(specPath(SPEC_ENDPOINTS.verify)).toBe("/api/sale/webhook/verify")
    expect(() => specPath(SPEC_ENDPOINTS.control)).toThrow(/payment_id/)
  })
})
