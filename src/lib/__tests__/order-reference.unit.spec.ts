import { checkoutDescription, checkoutFormFor } from "../checkout-form"
import { judgeNotification } from "../judge"
import { isOrderReference, newOrderReference, REFERENCE_ALPHABET, serviceOrderId } from "../order-reference"
import { parseOdemeOptions } from "../options"

const good = {
  apiKey: "sandbox_KEY",
  apiId: 1001,
  baseUrl: "http://127.0.0.1:4010",
  backendUrl: "http://localhost:9000",
  storefrontUrl: "http://localhost:8000",
}

describe("the short reference", () => {
  it("is the prefix, a dash and six characters of Crockford's base32, none of them I, L, O or U", () => {
    for (let i = 0; i < 200; i++) {
      const ref = newOrderReference("OD")
      expect(ref).toMatch(/^OD-[0-9A-HJKMNP-TV-Z]{6}$/)
      expect(isOrderReference(ref)).toBe(true)
    }
    expect(REFERENCE_ALPHABET).toHaveLength(32)
    expect(REFERENCE_ALPHABET).not.toMatch(/[ILOU]/)
  })

  it("draws each character from the whole alphabet", () => {
    let n = 0
    expect(newOrderReference("KAHVE", () => n++ % 32)).toBe("KAHVE-012345")
    expect(newOrderReference("OD", () => 31)).toBe("OD-ZZZZZZ")
  })

  it("never looks like a session id, so one order_id names at most one session", () => {
    expect(isOrderReference("payses_01M8SRR6ABCDEFGH")).toBe(false)
    expect(isOrderReference("OD-7K3F9Q")).toBe(true)
    expect(isOrderReference("OD-7K3F9")).toBe(false)
    expect(isOrderReference("OD-7K3F9I")).toBe(false)
  })

  it("is what the service is sent as order_id; a session from before references keeps its id", () => {
    expect(serviceOrderId({ session_id: "payses_1", reference: "OD-7K3F9Q" })).toBe("OD-7K3F9Q")
    expect(serviceOrderId({ session_id: "payses_1", reference: null })).toBe("payses_1")
    expect(serviceOrderId({ session_id: "payses_1" })).toBe("payses_1")
  })
})

describe("referencePrefix", () => {
  it("defaults to OD and takes 1 to 6 capitals or digits", () => {
    expect(parseOdemeOptions(good).referencePrefix).toBe("OD")
    expect(parseOdemeOptions({ ...good, referencePrefix: " KAHVE1 " }).referencePrefix).toBe("KAHVE1")
    for (const bad of ["", "od", "O-D", "TOOLONG", "Ö"]) {
      expect(() => parseOdemeOptions({ ...good, referencePrefix: bad })).toThrow(/referencePrefix must be 1 to 6 capital letters or digits/)
    }
  })
})

describe("what the service's page shows", () => {
  const options = parseOdemeOptions(good)

  it("the form sends the reference as order_id and names it in the description", () => {
    const form = checkoutFormFor(options, { session_id: "payses_1", reference: "OD-7K3F9Q", amount: "250.00", currency: "TRY" })
    expect(form.fields.order_id).toBe("OD-7K3F9Q")
    expect(form.fields.description).toBe("Sipariş ödemesi OD-7K3F9Q")
    expect(JSON.stringify(form.fields)).not.toContain('payses_1"')
  })

  it("an order's balance names the order number; a session from before references sends its id and no number", () => {
    expect(checkoutDescription(options, "payses_1", 1234, "OD-7K3F9Q")).toBe("Sipariş ödemesi #1234")
    const old = checkoutFormFor(options, { session_id: "payses_1", reference: null, amount: "250.00", currency: "TRY" })
    expect(old.fields.order_id).toBe("payses_1")
    expect(old.fields.description).toBe("Sipariş ödemesi")
    const custom = parseOdemeOptions({ ...good, checkout: { description: "{reference} Kahve" } })
    expect(checkoutDescription(custom, "payses_1", null, "OD-7K3F9Q")).toBe("OD-7K3F9Q Kahve")
  })
})

describe("a notification matched to its session", () => {
  const options = parseOdemeOptions(good)
  const verify = { is_valid: true, official_status: "successful", uuid: "u-1" }
  const money = { amount: "250.00", currency: "TRY" }

  it("is the session's when it names the session's reference", () => {
    const n = { order_id: "OD-7K3F9Q", uuid: "u-1", status: "successful", ...money }
    const answer = judgeNotification(n, { ...verify, order_id: "OD-7K3F9Q" }, { session_id: "payses_1", reference: "OD-7K3F9Q", ...money }, options)
    expect(answer.kind).toBe("paid")
  })

  it("is not when it names the session id of a session that has a reference (the service never knew it by that)", () => {
    const n = { order_id: "payses_1", uuid: "u-1", status: "successful", ...money }
    const answer = judgeNotification(n, { ...verify, order_id: "payses_1" }, { session_id: "payses_1", reference: "OD-7K3F9Q", ...money }, options)
    expect(answer).toEqual({ kind: "invalid", reason: "notification is for payses_1, not session payses_1 (OD-7K3F9Q)" })
  })

  it("a session from before references is matched by its id, as before", () => {
    const n = { order_id: "payses_1", uuid: "u-1", status: "successful", ...money }
    const answer = judgeNotification(n, { ...verify, order_id: "payses_1" }, { session_id: "payses_1", reference: null, ...money }, options)
    expect(answer.kind).toBe("paid")
  })
})
