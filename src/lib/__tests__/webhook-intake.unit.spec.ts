import { parseWebhook, takesUp } from "../webhook-intake"

/** A field named __proto__ is a field like any other: kept as data, never the stored payload's prototype. */
describe("parseWebhook and a field named __proto__", () => {
  it.each([
    ["an object", '{"type":"credit_card","amount":"1.00"}'],
    ["text", '"x"'],
  ])("whose value is %s is kept as a field", (_, value) => {
    const raw = `{"order_id":"payses_0123456789","uuid":"u-1","status":"successful","hash":"h","__proto__":${value}}`
    const parsed = parseWebhook(undefined, Buffer.from(raw))
    expect(parsed.kind).toBe("valid")
    const payload = (parsed as { input: { payload: Record<string, unknown>; type: string | null } }).input
    expect(Object.getPrototypeOf(payload.payload)).toBe(Object.prototype)
    expect(payload.type).toBeNull()
    expect(JSON.parse(JSON.stringify(payload.payload))).toHaveProperty("__proto__", JSON.parse(value))
  })
})

/** What the service may send (spec §6.2 types its fields but never says it omits, nulls or adds to them) is taken. */
describe("parseWebhook takes every shape with the four verify fields", () => {
  const four = { order_id: "payses_0123456789", uuid: "u-1", status: "successful", hash: "h" }
  it.each([
    ["nulls", JSON.stringify({ ...four, transaction_id: null, message: null })],
    ["empty strings", JSON.stringify({ ...four, amount: "", currency: "", message: "" })],
    ["numbers as text, text as numbers", JSON.stringify({ ...four, amount: "250.00", transaction_id: 123456 })],
    ["the lira as TL", JSON.stringify({ ...four, currency: "TL" })],
    ["a nested field", JSON.stringify({ ...four, customer: { name: "Ayşe", email: "a@example.com" } })],
    ["41 fields", JSON.stringify({ ...four, ...Object.fromEntries(Array.from({ length: 37 }, (_, i) => [`f${i}`, i])) })],
    ["form-encoded", new URLSearchParams({ ...four, amount: "250.00" }).toString()],
    ["JSON labelled text/plain (the raw text decides)", ` ${JSON.stringify(four)}\n`],
  ])("%s", (_, raw) => {
    const parsed = parseWebhook(undefined, Buffer.from(raw))
    expect(parsed).toEqual({
      kind: "valid",
      input: expect.objectContaining({ session_id: four.order_id, service_uuid: "u-1", status: "successful" }),
    })
  })

  it("refuses only junk: not fields, or without the four", () => {
    for (const raw of ["{not json", "[1]", "hello", JSON.stringify({ order_id: "a", uuid: "u", status: "successful" })]) {
      expect(parseWebhook(undefined, Buffer.from(raw)).kind).toBe("invalid")
    }
  })

  it("marks a delivery from the service's named address, and sends verify the four fields as they arrived", () => {
    const parsed = parseWebhook(undefined, Buffer.from(JSON.stringify({ ...four, uuid: " u-1 ", status: "Successful" })), { trusted: true })
    expect(parsed).toEqual({
      kind: "valid",
      input: expect.objectContaining({
        trusted: true,
        service_uuid: "u-1",
        payload: expect.objectContaining({ arrived: { order_id: four.order_id, uuid: " u-1 ", status: "Successful", hash: "h" } }),
      }),
    })
  })
})

/** Settings → Odeme tells the merchant when the merchant panel has Medusa's generic URL: its rows carry the plugin's mark. */
describe("the generic hook route's mark", () => {
  const body = { order_id: "payses_0123456789", uuid: "u-1", status: "successful", hash: "h" }

  it("is not taken from a body sent to the plugin's own route", () => {
    const parsed = parseWebhook({ ...body, medusa_hook: "true" })
    expect(parsed.kind).toBe("valid")
    expect(JSON.parse(JSON.stringify((parsed as { input: { payload: unknown } }).input.payload))).not.toHaveProperty("medusa_hook")
  })
})

/** A stored copy is processed when it is new, or when the copy before it was never taken up; a retry keeps its backoff. */
describe("takesUp", () => {
  it.each([
    ["a new row", { state: "retry", attempts: 3 }, false, true],
    ["a repeat of a row never taken up", { state: "received", attempts: 0 }, true, true],
    ["a repeat of a dead row reopened by its redelivery", { state: "retry", attempts: 0 }, true, true],
    ["a repeat of a row waiting for its retry", { state: "retry", attempts: 2 }, true, false],
    ["a repeat of a row being processed", { state: "processing", attempts: 1 }, true, false],
    ["a repeat of a row done", { state: "done", attempts: 1 }, true, false],
  ] as const)("%s", (_, row, duplicate, expected) => {
    expect(takesUp(row as never, duplicate)).toBe(expected)
  })
})
