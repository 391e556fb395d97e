import type { RunningEmulator } from "../types"
import { api, control, emulatorWithReceiver, openQuickCheckout, postForm, startReceiver, startTestEmulator, waitFor } from "./helpers"

const transfer = (order_id: string) => ({
  bank_id: 12,
  amount: "75.00",
  currency: "TRY",
  order_id,
  customer_name: "Zeynep Kaya",
  client_ip: "198.51.100.4",
})

describe("faults", () => {
  let emu: RunningEmulator
  beforeAll(async () => {
    emu = await startTestEmulator()
  })
  afterAll(() => emu.close())
  beforeEach(() => control(emu, "/reset", {}))

  it("error500 fails the next `count` calls of an endpoint", async () => {
    await control(emu, "/faults", { endpoint: "bank_groups", mode: "error500", count: 2 })
    const statuses = []
    for (let i = 0; i < 3; i++) statuses.push((await api(emu, "GET", "/api/pay/bank_transfer/bank-group/list")).status)
    expect(statuses).toEqual([500, 500, 200])
    // other endpoints are not affected
    await control(emu, "/faults", { endpoint: "create_transfer", mode: "error500", count: 1 })
    expect((await api(emu, "GET", "/api/pay/bank_transfer/get/banks/1")).status).toBe(200)
    const failed = await api(emu, "POST", "/api/pay/bank_transfer", transfer("f1"))
    expect(failed.status).toBe(500)
    expect((await control(emu, "/transfers")).result).toHaveLength(0)
  })

  it("* matches every service endpoint; DELETE clears faults", async () => {
    await control(emu, "/faults", { endpoint: "*", mode: "error500", count: 5 })
    expect((await api(emu, "POST", "/api/sale/webhook/verify", { order_id: "a", uuid: "b", status: "c", hash: "d" })).status).toBe(500)
    await control(emu, "/faults", undefined, "DELETE")
    expect((await api(emu, "GET", "/api/pay/bank_transfer/bank-group/list")).status).toBe(200)
  })

  it("hang holds the request until the client gives up", async () => {
    await control(emu, "/faults", { endpoint: "control", mode: "hang", count: 1 })
    await expect(
      fetch(emu.url + "/api/pay/bank_transfer/control/123", {
        headers: { "api-key": "sandbox_test_key_0001" },
        signal: AbortSignal.timeout(300),
      })
    ).rejects.toThrow()
    // the emulator keeps serving, and the next call is normal
    expect((await api(emu, "GET", "/api/pay/bank_transfer/control/123")).status).toBe(404)
  })

  it("reset cuts requests that are being held", async () => {
    await control(emu, "/faults", { endpoint: "uuid", mode: "hang", count: 1 })
    const pending = fetch(emu.url + "/api/pay/bank_transfer/uuid/x", { headers: { "api-key": "sandbox_test_key_0001" } })
    await waitFor(async () => (await control(emu, "/health")).hanging_requests === 1)
    await control(emu, "/reset", {})
    await expect(pending).rejects.toThrow()
  })

  it("slow answers normally after the delay", async () => {
    await control(emu, "/faults", { endpoint: "banks", mode: "slow", count: 1, delayMs: 200 })
    const r = await api(emu, "GET", "/api/pay/bank_transfer/get/banks/1")
    expect(r.status).toBe(200)
    expect(r.json.result.length).toBeGreaterThan(0)
  })

  it("error500 on checkout_quick renders an HTML error", async () => {
    await control(emu, "/faults", { endpoint: "checkout_quick", mode: "error500", count: 1 })
    await expect(openQuickCheckout(emu)).rejects.toThrow(/500/)
    await expect(openQuickCheckout(emu)).resolves.toHaveProperty("uuid")
  })

  it("rejects an unknown fault endpoint", async () => {
    await expect(control(emu, "/faults", { endpoint: "nope", mode: "hang" })).rejects.toThrow(/400/)
  })
})

describe("webhook delivery", () => {
  const env = emulatorWithReceiver({ webhookRetryDelaysMs: [30, 60, 90] })

  const create = (order: string) => api(env.emu, "POST", "/api/pay/bank_transfer", transfer(order))

  it("retries until the receiver answers 200", async () => {
    env.receiver.statuses.push(500, 500)
    await create("retry_1")
    await waitFor(() => env.receiver.received.length === 3)
    const hooks = (await waitFor(async () => {
      const h = await control(env.emu, "/webhooks")
      return h.result[0].state === "delivered" && h
    })) as any
    expect(hooks.result[0].attempts.map((a: any) => a.http_status)).toEqual([500, 500, 200])
    expect(env.receiver.received.map((r) => r.body.order_id)).toEqual(["retry_1", "retry_1", "retry_1"])
  })

  it("gives up after the last retry delay and records it", async () => {
    await control(env.emu, "/config", { webhookRetryDelaysMs: [20, 20] })
    env.receiver.statuses.push(503, 503, 503, 503)
    await create("giveup_1")
    const rec = await waitFor(async () => {
      const h = await control(env.emu, "/webhooks")
      return h.result[0].state === "gave_up" && h.result[0]
    })
    expect(rec.attempts).toHaveLength(3)
    expect(env.receiver.received).toHaveLength(3)
  })

  it("records connection errors as attempts", async () => {
    await control(env.emu, "/config", { webhookUrl: "http://127.0.0.1:1/nothing", webhookRetryDelaysMs: [] })
    await create("conn_err")
    const rec = await waitFor(async () => {
      const h = await control(env.emu, "/webhooks")
      return h.result[0].state === "gave_up" && h.result[0]
    })
    expect(rec.attempts[0].error).toBeTruthy()
  })

  // §6.2 types the fields but never says the service leaves one out, nulls it or adds to it: the plugin must take them all.
  it.each([
    ["nulls", "application/json", (b: any) => b.transaction_id === null && b.message === null],
    ["empty_strings", "application/json", (b: any) => b.amount === "" && b.currency === ""],
    ["numbers_as_text", "application/json", (b: any) => b.amount === "75.00"],
    ["text_as_numbers", "application/json", (b: any) => typeof b.transaction_id === "number"],
    ["lira_tl", "application/json", (b: any) => b.currency === "TL"],
    ["nested_field", "application/json", (b: any) => typeof b.customer === "object" && b.customer.address.city === "İzmir"],
    ["many_fields", "application/json", (b: any) => Object.keys(b).length === 41],
    ["form", "application/x-www-form-urlencoded", (b: any) => typeof b === "string" && new URLSearchParams(b).get("currency") === "TRY"],
    ["text_plain_json", "text/plain", (b: any) => b.currency === "TRY"],
  ])("delivers in the shape %s, with verify fields verify accepts", async (shape, contentType, looks) => {
    await control(env.emu, "/webhooks", { shape })
    await create(`shape_${shape}`)
    await waitFor(() => env.receiver.received.length === 1)
    const { body, headers } = env.receiver.received[0]
    expect(headers["content-type"]).toBe(contentType)
    expect(looks(body)).toBe(true)
    const fields = typeof body === "string" ? Object.fromEntries(new URLSearchParams(body)) : body
    const verify = await api(env.emu, "POST", "/api/sale/webhook/verify", {
      order_id: fields.order_id,
      uuid: fields.uuid,
      status: fields.status,
      hash: fields.hash,
    })
    expect(verify.json).toMatchObject({ is_valid: true, official_status: "successful" })
    expect((await control(env.emu, "/webhooks")).result[0].shape).toBe(shape)
  })

  // §6.2 rule 1: the receiver must answer 200; another 2xx is not a delivery.
  it.each([201, 202, 204])("does not count a %i answer as delivered", async (code) => {
    await control(env.emu, "/config", { webhookRetryDelaysMs: [20] })
    env.receiver.statuses.push(code, code)
    await create(`answer_${code}`)
    const rec = await waitFor(async () => {
      const h = await control(env.emu, "/webhooks")
      return h.result[0].state === "gave_up" && h.result[0]
    })
    expect(rec.attempts.map((a: any) => a.http_status)).toEqual([code, code])
    expect(rec.delivered_at).toBeUndefined()
  })

  it("records notifications as undelivered without a webhook URL", async () => {
    // A transfer needs a callback URL (§4.5 rule 2): this one is created first, then the URL is removed.
    await control(env.emu, "/webhooks", { paused: true })
    await create("no_url")
    await control(env.emu, "/config", { webhookUrl: null })
    await control(env.emu, "/webhooks", { paused: false })
    const h = await control(env.emu, "/webhooks")
    expect(h.result).toHaveLength(1)
    expect(h.result[0]).toMatchObject({ state: "undelivered", attempts: [] })
    // resend after a URL is configured delivers it
    await control(env.emu, "/config", { webhookUrl: env.receiver.url })
    await control(env.emu, `/webhooks/${h.result[0].id}/resend`, {})
    await waitFor(() => env.receiver.received.length === 1)
    expect(env.receiver.received[0].body.order_id).toBe("no_url")
  })

  it("duplicates notifications", async () => {
    await control(env.emu, "/webhooks", { duplicate: 2 })
    await create("dup_1")
    await waitFor(() => env.receiver.received.length === 3)
    const bodies = env.receiver.received.map((r) => JSON.stringify(r.body))
    expect(new Set(bodies).size).toBe(1)
  })

  it("pauses, then flushes in reverse order when reorder is set", async () => {
    await control(env.emu, "/webhooks", { paused: true, reorder: true })
    await create("first")
    await create("second")
    await new Promise((r) => setTimeout(r, 50))
    expect(env.receiver.received).toHaveLength(0)
    expect((await control(env.emu, "/webhooks")).queued).toBe(2)
    const flushed = await control(env.emu, "/webhooks/flush", {})
    expect(flushed.flushed).toBe(2)
    await waitFor(() => env.receiver.received.length === 2)
    expect(env.receiver.received.map((r) => r.body.order_id)).toEqual(["second", "first"])
  })

  it("flushes in order without reorder, and resends on demand", async () => {
    await control(env.emu, "/webhooks", { paused: true })
    await create("one")
    await create("two")
    await control(env.emu, "/webhooks/flush", {})
    await waitFor(() => env.receiver.received.length === 2)
    expect(env.receiver.received.map((r) => r.body.order_id)).toEqual(["one", "two"])
    const h = await control(env.emu, "/webhooks")
    await control(env.emu, `/webhooks/${h.result[0].id}/resend`, {})
    await waitFor(() => env.receiver.received.length === 3)
    expect(env.receiver.received[2].body).toEqual(env.receiver.received[0].body)
  })

  it("delays delivery with delayMs", async () => {
    await control(env.emu, "/webhooks", { delayMs: 100 })
    await create("delayed")
    expect((await control(env.emu, "/webhooks")).result[0].state).toBe("scheduled")
    await waitFor(() => env.receiver.received.length === 1)
  })

  it("sends the webhook when a card payment is completed on the page", async () => {
    const { uuid } = await openQuickCheckout(env.emu, { order_id: "page_hook" })
    await postForm(`${env.emu.url}/checkout/session/${uuid}/complete`, { outcome: "approve" })
    await waitFor(() => env.receiver.received.length === 1)
    expect(env.receiver.received[0].body.uuid).toBe(uuid)
  })
})

describe("close", () => {
  it("cancels pending retries and held requests", async () => {
    const receiver = await startReceiver()
    receiver.statuses.push(500, 500, 500)
    const emu = await startTestEmulator({ webhookUrl: receiver.url, webhookRetryDelaysMs: [60_000] })
    await api(emu, "POST", "/api/pay/bank_transfer", transfer("close_1"))
    await waitFor(() => receiver.received.length === 1)
    await control(emu, "/faults", { endpoint: "bank_groups", mode: "hang", count: 1 })
    const held = fetch(emu.url + "/api/pay/bank_transfer/bank-group/list", { headers: { "api-key": "sandbox_test_key_0001" } })
    await waitFor(async () => (await control(emu, "/health")).hanging_requests === 1)
    await emu.close()
    await expect(held).rejects.toThrow()
    await receiver.close()
  })
})
