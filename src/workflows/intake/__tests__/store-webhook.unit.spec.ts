import { MAX_OPEN_GENERIC_WEBHOOKS } from "../../../lib/webhook-intake"
import { takeWebhook } from "../store-webhook"

/**
 * Text PostgreSQL cannot store never fails the statement it would share: in a field verify is not sent it is kept
 * as U+FFFD (the delivery is the service's and is stored); in one of the four verify fields it is junk (400).
 */
describe("takeWebhook and text PostgreSQL cannot store", () => {
  const module = () => {
    const storeNotification = jest.fn(async () => null)
    return {
      odeme: { storeNotificationUnbounded: storeNotification, countOpenWebhooks: async () => 0, sessionOfOrderId: async () => null } as never,
      storeNotification,
    }
  }
  const base = '"order_id":"payses_0123456789","uuid":"u-1","status":"successful","hash":"h"'

  it.each([
    ["NUL in a value", `{${base},"message":"a\\u0000b"}`, { message: "a\uFFFDb" }],
    ["a lone high surrogate in a value", `{${base},"message":"\\ud800"}`, { message: "\uFFFD" }],
    ["a lone low surrogate in a field name", `{${base},"x\\udc00":"1"}`, { "x\uFFFD": "1" }],
  ])("%s is stored made well-formed", async (_, json, kept) => {
    const { odeme, storeNotification } = module()
    const intake = await takeWebhook(odeme, JSON.parse(json))
    expect(intake).toEqual({ kind: "stray" })
    expect(storeNotification).toHaveBeenCalledWith(expect.objectContaining({ payload: expect.objectContaining(kept) }))
  })

  it.each([
    ["NUL in the hash", `{"order_id":"payses_0123456789","uuid":"u-1","status":"successful","hash":"h\\u0000"}`],
    ["a lone surrogate in the uuid", `{"order_id":"payses_0123456789","uuid":"u\\ud800","status":"successful","hash":"h"}`],
  ])("%s is junk: verify could not be sent it as it came", async (_, json) => {
    const { odeme, storeNotification } = module()
    expect(await takeWebhook(odeme, JSON.parse(json))).toEqual({ kind: "invalid", message: expect.stringMatching(/must be plain text/) })
    expect(storeNotification).not.toHaveBeenCalled()
  })

  it("reads the raw body when there is one (a form field without a name keeps its NUL there, made well-formed)", async () => {
    const { odeme, storeNotification } = module()
    const raw = "order_id=payses_0123456789&uuid=u-1&status=successful&hash=h&=\u0000"
    await takeWebhook(odeme, { order_id: "payses_0123456789", uuid: "u-1", status: "successful", hash: "h" }, Buffer.from(raw))
    expect(storeNotification).toHaveBeenCalledWith(expect.objectContaining({ raw_body: raw.replace("\u0000", "\uFFFD") }))
  })

  it("stores text with paired surrogates (emoji) as it came", async () => {
    const { odeme, storeNotification } = module()
    await takeWebhook(odeme, JSON.parse(`{${base},"message":"\\ud83d\\ude00 ödendi"}`))
    expect(storeNotification).toHaveBeenCalledWith(expect.objectContaining({ payload: expect.objectContaining({ message: "😀 ödendi" }) }))
  })
})

/** Medusa's generic hook route cannot refuse junk before it is stored: a session's waiting rows are bounded instead. */
describe("takeWebhook bounds what one session has waiting", () => {
  const body = { order_id: "payses_0123456789", uuid: "u-1", status: "successful", hash: "h" }
  const module = (open: number) => {
    const storeNotification = jest.fn(async () => null)
    const countOpenWebhooks = jest.fn(async (_session: string, atMost: number) => Math.min(open, atMost))
    return {
      odeme: { storeNotificationUnbounded: storeNotification, countOpenWebhooks, sessionOfOrderId: async () => null } as never,
      storeNotification,
      countOpenWebhooks,
    }
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
    await takeWebhook(
      { storeNotificationUnbounded: storeNotification, countOpenWebhooks: async () => 0, sessionOfOrderId: async () => null } as never,
      body
    )
    expect(storeNotification).toHaveBeenCalledWith(expect.objectContaining({ payload: expect.objectContaining({ medusa_hook: true }) }))
  })
})
