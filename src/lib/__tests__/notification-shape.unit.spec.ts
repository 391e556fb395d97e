import {
  contentKey,
  decodeWebhookText,
  hasNulCharacter,
  hasUnstorableText,
  notificationStatus,
  readText,
  reportedMoney,
  storableFields,
  storableText,
  webhookSchema,
  zodMessage,
} from "../notification-shape"

const good = { order_id: "payses_1", uuid: "u-1", status: "successful", hash: "h" }
const messageOf = (body: unknown) => {
  const r = webhookSchema.safeParse(body)
  return r.success ? null : zodMessage(r.error)
}

describe("webhook shape (spec §6.2): the four verify fields, and nothing else refused", () => {
  it("normalises the redirect's and the webhook's status words; words the service never uses are kept for verify", () => {
    expect(notificationStatus.parse(" SUCCESS ")).toBe("successful")
    expect(notificationStatus.parse("Error")).toBe("failed")
    for (const s of ["pending", "", "succes"]) expect(notificationStatus.safeParse(s).success).toBe(false)
    expect(webhookSchema.parse({ ...good, status: " Success " }).status).toBe("successful")
    expect(webhookSchema.parse({ ...good, status: "ERROR" }).status).toBe("failed")
    expect(webhookSchema.parse({ ...good, status: "pending" }).status).toBe("pending")
    expect(webhookSchema.parse({ ...good, status: 1 }).status).toBe("1")
    expect(messageOf({ ...good, status: undefined })).toBe("status: status is required")
  })

  it("takes the four fields as text or numbers, trimmed, and says which one is missing or wrong", () => {
    expect(webhookSchema.parse({ ...good, order_id: "  payses_1 ", uuid: 77 })).toMatchObject({ order_id: "payses_1", uuid: "77" })
    for (const field of ["order_id", "uuid", "status", "hash"]) {
      expect(messageOf({ ...good, [field]: undefined })).toBe(`${field}: ${field} is required`)
      expect(messageOf({ ...good, [field]: null })).toBe(`${field}: ${field} is required`)
      expect(messageOf({ ...good, [field]: "   " })).toBe(`${field}: ${field} is required`)
      expect(messageOf({ ...good, [field]: { a: 1 } })).toBe(`${field}: ${field} must be text or a number`)
    }
    expect(messageOf({ ...good, uuid: true })).toBe("uuid: uuid must be text or a number")
    expect(messageOf({ ...good, hash: "x".repeat(1025) })).toBe("hash: hash must be at most 1024 characters")
    expect(messageOf({ ...good, hash: "x".repeat(1024) })).toBeNull()
    expect(messageOf({ ...good, order_id: "x".repeat(201) })).toBe("order_id: order_id must be at most 200 characters")
    expect(messageOf("text")).toBe("the notification must be an object of fields")
    expect(messageOf(null)).toBe("the notification must be an object of fields")
  })

  it("refuses none of the shapes the spec does not forbid: nulls, empty text, numbers as text, nested and many fields", () => {
    const fields = Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`f${i}`, "v"]))
    for (const body of [
      { ...good, transaction_id: null, message: null, amount: "", currency: "" },
      { ...good, amount: "250.00", transaction_id: 123456 },
      { ...good, currency: "TL" },
      { ...good, customer: { name: "Ayşe", address: { city: "İzmir" } } },
      { ...good, ...fields },
      { ...good, amount: { value: 1 }, currency: 949, type: ["card"] },
      { ...good, ["k".repeat(300)]: "x".repeat(5000) },
    ]) {
      expect(messageOf(body)).toBeNull()
    }
  })

  it("reads a named field's type leniently: null or blank is absent", () => {
    expect(webhookSchema.parse({ ...good, type: " credit_card " }).type).toBe("credit_card")
    expect(webhookSchema.parse({ ...good, type: null }).type).toBeNull()
    expect(webhookSchema.parse({ ...good, type: "" }).type).toBeNull()
    expect(webhookSchema.parse(good).type).toBeNull()
  })
})

describe("readText and reportedMoney", () => {
  it("is absent only for a field left out, null or blank; anything else is text, an object as its JSON", () => {
    expect(readText(undefined)).toBeNull()
    expect(readText(null)).toBeNull()
    expect(readText("  ")).toBeNull()
    expect(readText(" 10.50 ")).toBe("10.50")
    expect(readText(10.5)).toBe("10.5")
    expect(readText(false)).toBe("false")
    expect(readText({ a: 1 })).toBe('{"a":1}')
  })

  it("reads the lira's spellings as TRY and leaves other codes as they are, upper-cased", () => {
    for (const tl of ["TL", "tl", " Tl "]) expect(reportedMoney({ amount: "1", currency: tl }).currency).toBe("TRY")
    expect(reportedMoney({ currency: "try" }).currency).toBe("TRY")
    expect(reportedMoney({ currency: "eur" }).currency).toBe("EUR")
    expect(reportedMoney({ currency: "TLX" }).currency).toBe("TLX")
    expect(reportedMoney({ amount: "", currency: "" })).toEqual({ amount: null, currency: null })
    expect(reportedMoney({ amount: 250 })).toEqual({ amount: "250", currency: null })
  })
})

describe("decodeWebhookText", () => {
  it("reads JSON whatever the content type said, and form-encoded fields flat, as they came", () => {
    expect(decodeWebhookText('\uFEFF {"order_id":"a","n":1} ')).toEqual({ order_id: "a", n: 1 })
    expect(decodeWebhookText("order_id=a&amount=250.00&customer%5Bname%5D=Ay%C5%9Fe")).toEqual({
      order_id: "a",
      amount: "250.00",
      "customer[name]": "Ayşe",
    })
  })

  it("is null for what is neither: junk", () => {
    for (const junk of ["{not json", "[1,2]", '"text"', "plain words", "", "null"]) expect(decodeWebhookText(junk)).toBeNull()
  })

  it("keeps a field named __proto__ as a field, never as the object's prototype", () => {
    const form = decodeWebhookText("__proto__=x&order_id=a")!
    expect(Object.getPrototypeOf(form)).toBe(Object.prototype)
    expect(form).toHaveProperty("__proto__", "x")
    const json = decodeWebhookText('{"__proto__":{"polluted":1},"order_id":"a"}')!
    expect((json as { polluted?: unknown }).polluted).toBeUndefined()
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

  it("tells NUL and lone surrogates apart from paired surrogates", () => {
    expect(hasUnstorableText({ a: "x\u0000" })).toBe(true)
    expect(hasUnstorableText({ a: "x\ud800" })).toBe(true)
    expect(hasUnstorableText({ a: "\udc00x" })).toBe(true)
    expect(hasUnstorableText({ a: "😀 çay" })).toBe(false)
    expect(storableText("a\u0000b\ud800c😀")).toBe("a\uFFFDb\uFFFDc😀")
  })

  it("keeps every field storable: text made well-formed, values deeper than 32 levels kept as their JSON", () => {
    let deep: unknown = "end"
    for (let i = 0; i < 40; i++) deep = { d: deep }
    const stored = storableFields({ a: "x\u0000", ["k\ud800"]: 1, n: Infinity, deep }) as Record<string, unknown>
    expect(stored.a).toBe("x\uFFFD")
    expect(stored["k\uFFFD"]).toBe(1)
    expect(stored.n).toBe("Infinity")
    let level = stored.deep
    for (let i = 0; i < 31; i++) level = (level as { d: unknown }).d
    expect(typeof level).toBe("string")
    expect(JSON.stringify(JSON.parse(level as string))).toContain('"end"')
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

  it("tells nested values apart by their content, whatever their keys' order", () => {
    const k = contentKey({ a: 1, c: { x: 1, y: [1, { z: 2 }] } })
    expect(contentKey({ c: { y: [1, { z: 2 }], x: 1 }, a: "1" })).toBe(k)
    expect(contentKey({ a: 1, c: { x: 1, y: [1, { z: 3 }] } })).not.toBe(k)
    expect(contentKey({ a: 1, c: { x: 2 } })).not.toBe(contentKey({ a: 1, c: { x: 3 } }))
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
