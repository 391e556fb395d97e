import { MAX_OPEN_GENERIC_WEBHOOKS, parseWebhook, takeWebhook } from "../webhook-intake"

/** Text PostgreSQL cannot store is refused before the database (400), never failing the statement it would share. */
describe("takeWebhook refuses text PostgreSQL cannot store", () => {
  const module = () => {
    const storeNotification = jest.fn(async () => null)
    return { odeme: { storeNotificationUnbounded: storeNotification, countOpenWebhooks: async () => 0 } as never, storeNotification }
  }
  const base = '"order_id":"payses_0123456789","uuid":"u-1","status":"successful","hash":"h"'

  it.each([
    ["NUL in a value", `{${base},"message":"a\\u0000b"}`, /NUL characters are not allowed/],
    ["a lone high surrogate in a value", `{${base},"message":"\\ud800"}`, /unpaired surrogate/],
    ["a lone low surrogate in a field name", `{${base},"x\\udc00":"1"}`, /unpaired surrogate/],
  ])("%s", async (_, json, message) => {
    const { odeme, storeNotification } = module()
    const intake = await takeWebhook(odeme, JSON.parse(json))
    expect(intake).toEqual({ kind: "invalid", message: expect.stringMatching(message) })
    expect(storeNotification).not.toHaveBeenCalled()
  })

  it("refuses a NUL the parsers dropped from the body but the raw body still holds (a form field without a name)", async () => {
    const { odeme, storeNotification } = module()
    const raw = "order_id=payses_0123456789&uuid=u-1&status=successful&hash=h&=\u0000"
    const intake = await takeWebhook(odeme, { order_id: "payses_0123456789", uuid: "u-1", status: "successful", hash: "h" }, Buffer.from(raw))
    expect(intake).toEqual({ kind: "invalid", message: expect.stringMatching(/NUL characters are not allowed/) })
    expect(storeNotification).not.toHaveBeenCalled()
  })

  it("stores text with paired surrogates (emoji) as it came", async () => {
    const { odeme, storeNotification } = module()
    await takeWebhook(odeme, JSON.parse(`{${base},"message":"\\ud83d\\ude00 ödendi"}`))
    expect(storeNotification).toHaveBeenCalledWith(expect.objectContaining({ payload: expect.objectContaining({ message: "😀 ödendi" }) }))
  })
})

/** zod 4's loose object would make a `__proto__` field the parsed body's prototype, its fields read as checked ones. */
describe("takeWebhook refuses a field named __proto__", () => {
  it.each([
    ["an object", '{"type":"credit_card","amount":"1.00"}'],
    ["text", '"x"'],
  ])("whose value is %s", async (_, value) => {
    const storeNotification = jest.fn(async () => null)
    const body = JSON.parse(`{"order_id":"payses_0123456789","uuid":"u-1","status":"successful","hash":"h","__proto__":${value}}`)
    const intake = await takeWebhook({ storeNotificationUnbounded: storeNotification, countOpenWebhooks: async () => 0 } as never, body)
    expect(intake).toEqual({ kind: "invalid", message: expect.stringMatching(/may not be named __proto__/) })
    expect(storeNotification).not.toHaveBeenCalled()
  })
})

/** Medusa's generic hook route cannot refuse junk before it is stored: a session's waiting rows are bounded instead. */
describe("takeWebhook bounds what one session has waiting", () => {
  const body = { order_id: "payses_0123456789", uuid: "u-1", status: "successful", hash: "h" }
  const module = (open: number) => {
    const storeNotification = jest.fn(async () => null)
    const countOpenWebhooks = jest.fn(async (_session: string, atMost: number) => Math.min(open, atMost))
    return { odeme: { storeNotificationUnbounded: storeNotification, countOpenWebhooks } as never, storeNotification, countOpenWebhooks }
  }

  it("stores while fewer than the bound wait", async () => {
    const { odeme, storeNotification, countOpenWebhooks } = module(MAX_OPEN_GENERIC_WEBHOOKS - 1)
    await takeWebhook(odeme, body)
    expect(countOpenWebhooks).toHaveBeenCalledWith("payses_0123456789", MAX_OPEN_GENERIC_WEBHOOKS)
    expect(storeNotification).toHaveBeenCalledTimes(1)
  })

  it("stores nothing once the bound is reached, and says why", async () => {
    const { odeme, storeNotification } = module(MAX_OPEN_GENERIC_WEBHOOKS)
    expect(await takeWebhook(odeme, body)).toEqual({
      kind: "bounded",
      message: expect.stringContaining(`${MAX_OPEN_GENERIC_WEBHOOKS} notifications waiting`),
    })
    expect(storeNotification).not.toHaveBeenCalled()
  })
})

/** Settings → Odeme tells the merchant when the merchant panel has Medusa's generic URL: its rows carry the plugin's mark. */
describe("the generic hook route's mark", () => {
  const body = { order_id: "payses_0123456789", uuid: "u-1", status: "successful", hash: "h" }

  it("is set on what Medusa's generic hook route stores", async () => {
    const storeNotification = jest.fn(async () => null)
    await takeWebhook({ storeNotificationUnbounded: storeNotification, countOpenWebhooks: async () => 0 } as never, body)
    expect(storeNotification).toHaveBeenCalledWith(expect.objectContaining({ payload: expect.objectContaining({ medusa_hook: true }) }))
  })

  it("is not taken from a body sent to the plugin's own route", () => {
    const parsed = parseWebhook({ ...body, medusa_hook: "true" })
    expect(parsed.kind).toBe("valid")
    expect(JSON.parse(JSON.stringify((parsed as { input: { payload: unknown } }).input.payload))).not.toHaveProperty("medusa_hook")
  })
})
