import { contentKey, hasNulCharacter, notificationStatus, unstorableText, webhookSchema, zodMessage } from "../notification-shape"

const good = { order_id: "payses_1", uuid: "u-1", status: "successful", hash: "h" }
const messageOf = (body: unknown) => {
  const r = webhookSchema.safeParse(body)
  return r.success ? null : zodMessage(r.error)
}

describe("webhook shape (spec §6.2)", () => {
  it("normalises the redirect's and the webhook's status words, in any case and spacing", () => {
    expect(notificationStatus.parse(" SUCCESS ")).toBe("successful")
    expect(notificationStatus.parse("Error")).toBe("failed")
    expect(notificationStatus.parse("successful")).toBe("successful")
    expect(notificationStatus.parse("FAILED")).toBe("failed")
    for (const s of ["pending", "", "succes"]) expect(notificationStatus.safeParse(s).success).toBe(false)
    expect(messageOf({ ...good, status: "pending" })).toBe('status: status must be "successful" or "failed"')
    expect(messageOf({ ...good, status: 1 })).toBe('status: status must be "successful" or "failed"')
    expect(messageOf({ ...good, status: undefined })).toBe("status: status is required")
  })

  it("takes text or numbers, trimmed, and says which field is missing or wrong", () => {
    expect(webhookSchema.parse({ ...good, order_id: "  payses_1 ", amount: 12.5, currency: " try ", transaction_id: 77 })).toMatchObject({
      order_id: "payses_1",
      amount: "12.5",
      currency: "try",
      transaction_id: "77",
    })
    expect(messageOf({ ...good, order_id: undefined })).toBe("order_id: order_id is required")
    expect(messageOf({ ...good, order_id: "   " })).toBe("order_id: order_id is required")
    expect(messageOf({ ...good, uuid: true })).toBe("uuid: uuid must be text or a number")
    expect(messageOf({ ...good, hash: "x".repeat(1025) })).toBe("hash: hash must be at most 1024 characters")
    expect(messageOf({ ...good, hash: "x".repeat(1024) })).toBeNull()
    expect(messageOf({ ...good, order_id: "x".repeat(201) })).toBe("order_id: order_id must be at most 200 characters")
    expect(messageOf({ ...good, uuid: "x".repeat(101) })).toBe("uuid: uuid must be at most 100 characters")
  })

  it("checks amount and currency", () => {
    for (const amount of ["10", "10.5", "0.01", 3]) expect(messageOf({ ...good, amount })).toBeNull()
    for (const amount of ["-1", "1e3", "1,5", "abc", ".5"]) expect(messageOf({ ...good, amount })).toBe("amount: amount must be a decimal number")
    for (const currency of ["TRY", "eur"]) expect(messageOf({ ...good, currency })).toBeNull()
    for (const currency of ["TR", "TRYY", "T1Y", 949]) expect(messageOf({ ...good, currency })).toBe("currency: currency must be a 3-letter code")
  })

  it("keeps unnamed fields only flat, short and few", () => {
    expect(webhookSchema.parse({ ...good, extra: "x" })).toMatchObject({ extra: "x" })
    const fields = (n: number) => Object.fromEntries(Array.from({ length: n - 4 }, (_, i) => [`f${i}`, "v"]))
    expect(messageOf({ ...good, ...fields(40) })).toBeNull()
    expect(messageOf({ ...good, ...fields(41) })).toBe("at most 40 fields are accepted")
    expect(messageOf({ ...good, ["k".repeat(100)]: 1 })).toBeNull()
    expect(messageOf({ ...good, ["k".repeat(101)]: 1 })).toBe("field names are at most 100 characters")
    expect(messageOf({ ...good, extra: { a: 1 } })).toBe("extra: nested values are not accepted")
    expect(messageOf({ ...good, extra: null })).toBeNull()
    expect(messageOf({ ...good, extra: "x".repeat(2000) })).toBeNull()
    expect(messageOf({ ...good, extra: "x".repeat(2001) })).toBe("extra: is too long")
    expect(messageOf(JSON.parse('{"order_id":"a","uuid":"u","status":"failed","hash":"h","__proto__":{"x":1}}'))).toBe(
      "a field may not be named __proto__"
    )
    expect(messageOf("text")).toBe("the notification must be an object of fields")
  })
})

describe("text PostgreSQL cannot store", () => {
  it("finds NUL in values and names, nested, to 32 levels", () => {
    expect(hasNulCharacter("a\u0000b")).toBe(true)
    expect(hasNulCharacter({ a: ["x", { b: "\u0000" }] })).toBe(true)
    expect(hasNulCharacter({ ["k\u0000"]: 1 })).toBe(true)
    expect(hasNulCharacter({ a: "plain", b: 1, c: null })).toBe(false)
    expect(hasNulCharacter(null)).toBe(false)
    let deep: unknown = "\u0000"
    for (let i = 0; i < 33; i++) deep = { d: deep }
    expect(hasNulCharacter(deep)).toBe(true)
    deep = { d: deep }
    expect(hasNulCharacter(deep)).toBe(false)
  })

  it("tells NUL from a lone surrogate; paired surrogates are fine", () => {
    expect(unstorableText({ a: "x\u0000" })).toBe("nul")
    expect(unstorableText({ a: "x\ud800" })).toBe("lone_surrogate")
    expect(unstorableText({ a: "\udc00x" })).toBe("lone_surrogate")
    expect(unstorableText({ a: "😀 çay" })).toBeNull()
    expect(unstorableText("plain")).toBeNull()
  })
})

describe("contentKey", () => {
  it("is the same for the same fields in any order, and differs for any change", () => {
    const k = contentKey({ b: "2", a: 1 })
    expect(k).toMatch(/^c:[0-9a-f]{64}$/)
    expect(contentKey({ a: "1", b: 2 })).toBe(k)
    expect(contentKey({ a: 1, b: "2", c: undefined, d: null })).toBe(k)
    expect(contentKey({ a: 1, b: "3" })).not.toBe(k)
    expect(contentKey({ a: 1, c: "2" })).not.toBe(k)
  })
})

describe("zodMessage", () => {
  it("joins issues, each with its path", () => {
    expect(
      zodMessage({
        issues: [
          { path: ["a", 0], message: "bad" },
          { path: [], message: "worse" },
        ],
      })
    ).toBe("a.0: bad; worse")
  })
})

// Survivors of `npm run mutate` on notification-shape.ts (2026-11-26), one by one; the first three were written before the run.
describe("notification shape, edges", () => {
  it("answers no body at all with the object message, without reading a field of it", () => {
    expect(messageOf(null)).toBe("the notification must be an object of fields")
    expect(messageOf(undefined)).toBe("the notification must be an object of fields")
  })

  it("names the first unstorable text it meets and stops there", () => {
    expect(unstorableText({ a: "\u0000", b: "\ud800" })).toBe("nul")
    expect(unstorableText({ a: "\ud800", b: "\u0000" })).toBe("lone_surrogate")
  })

  it("looks inside objects only, not into a function's properties", () => {
    const fn = Object.assign(() => undefined, { x: "\u0000" })
    expect(hasNulCharacter(fn)).toBe(false)
    expect(hasNulCharacter({ f: fn })).toBe(false)
  })

  it("raises each of its own refusals as a custom issue, like zod's own refinements", () => {
    const issues = (body: unknown) => {
      const r = webhookSchema.safeParse(body)
      return r.success ? [] : r.error.issues.map((i) => [i.code, i.message])
    }
    const fields = Object.fromEntries(Array.from({ length: 37 }, (_, i) => [`f${i}`, "v"]))
    expect(issues({ ...good, ...fields })).toEqual([["custom", "at most 40 fields are accepted"]])
    expect(issues({ ...good, ["k".repeat(101)]: 1 })).toEqual([["custom", "field names are at most 100 characters"]])
    expect(issues({ ...good, extra: [1] })).toEqual([["custom", "nested values are not accepted"]])
    expect(issues({ ...good, extra: "x".repeat(2001) })).toEqual([["custom", "is too long"]])
  })
})
