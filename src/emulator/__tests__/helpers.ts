import { createServer, type IncomingMessage, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { quickCheckoutSignature } from "../signature"
import { startEmulator } from "../index"
import type { EmulatorOptions, RunningEmulator } from "../types"

export const SANDBOX_KEY = "sandbox_test_key_0001"
export const LIVE_KEY = "live_test_key_0002"
export const LIVE_ID = 2002

export async function startTestEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  return startEmulator({
    port: 0,
    webhookRetryDelaysMs: [50, 100, 150],
    accesses: [{ apiId: LIVE_ID, apiKey: LIVE_KEY, mode: "live" }],
    ...options,
  })
}

export interface Receiver {
  url: string
  received: Array<{ body: any; headers: IncomingMessage["headers"]; time: number }>
  /** Status codes answered in order; after they run out, 200. */
  statuses: number[]
  close(): Promise<void>
}

export async function startReceiver(): Promise<Receiver> {
  const received: Receiver["received"] = []
  const statuses: number[] = []
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on("data", (c) => chunks.push(c))
    req.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8")
      let body: unknown = text
      try {
        body = JSON.parse(text)
      } catch {
        /* keep text */
      }
      received.push({ body, headers: req.headers, time: Date.now() })
      res.statusCode = statuses.length ? statuses.shift()! : 200
      res.end("ok")
    })
  })
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()))
  const port = (server.address() as AddressInfo).port
  return {
    url: `http://127.0.0.1:${port}/webhook`,
    received,
    statuses,
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r())
        server.closeAllConnections()
      }),
  }
}

export async function api(
  emu: RunningEmulator,
  method: string,
  path: string,
  body?: unknown,
  key: string | null = SANDBOX_KEY
): Promise<{ status: number; json: any }> {
  const headers: Record<string, string> = {}
  if (key !== null) headers["api-key"] = key
  if (body !== undefined) headers["content-type"] = "application/json"
  const res = await fetch(emu.url + path, {
    method,
    headers,
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  })
  const text = await res.text()
  let json: any = text
  try {
    json = JSON.parse(text)
  } catch {
    /* not json */
  }
  return { status: res.status, json }
}

export async function control(emu: RunningEmulator, path: string, body?: unknown, method?: string): Promise<any> {
  const res = await fetch(emu.url + "/_control" + path, {
    method: method ?? (body === undefined ? "GET" : "POST"),
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const json = await res.json()
  if (!res.ok) throw new Error(`control ${path} -> ${res.status} ${JSON.stringify(json)}`)
  return json
}

export function signedForm(
  fields: Partial<Record<"api_id" | "amount" | "currency" | "description" | "order_id" | "success_url" | "cancel_url" | "ts", string>>,
  key = SANDBOX_KEY
): Record<string, string> {
  const f: Record<string, string> = {
    api_id: "1001",
    amount: "200.00",
    currency: "TRY",
    description: "Sipariş #1",
    order_id: "order_1",
    success_url: "https://shop.example/success",
    cancel_url: "https://shop.example/cancel",
    ts: String(Math.floor(Date.now() / 1000)),
    ...fields,
  }
  return { ...f, signature: quickCheckoutSignature(f, key) }
}

export async function postForm(url: string, form: Record<string, string>): Promise<{ status: number; location: string | null; text: string }> {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(form).toString(),
    redirect: "manual",
  })
  return { status: res.status, location: res.headers.get("location"), text: await res.text() }
}

export async function get(url: string): Promise<{ status: number; location: string | null; text: string }> {
  const res = await fetch(url, { redirect: "manual" })
  return { status: res.status, location: res.headers.get("location"), text: await res.text() }
}

export async function waitFor<T>(fn: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 3000): Promise<T> {
  const end = Date.now() + timeoutMs
  for (;;) {
    const v = await fn()
    if (v) return v
    if (Date.now() > end) throw new Error("waitFor timed out")
    await new Promise((r) => setTimeout(r, 20))
  }
}

/** Runs a Quick Checkout up to the session page; returns the uuid. */
export async function openQuickCheckout(emu: RunningEmulator, fields: Parameters<typeof signedForm>[0] = {}, key = SANDBOX_KEY) {
  const res = await postForm(emu.url + "/checkout/quick", signedForm(fields, key))
  if (res.status !== 303) throw new Error(`quick checkout refused: ${res.status} ${res.text.slice(0, 300)}`)
  const uuid = /\/checkout\/session\/([0-9a-f-]{36})$/.exec(res.location!)![1]
  return { uuid, location: res.location! }
}

/**
 * One emulator and one webhook receiver for a `describe` block: started once,
 * reset before each test (state, `config` on top of the receiver's URL, and
 * what the receiver holds). Read them as `env.emu` / `env.receiver` inside tests.
 */
export function emulatorWithReceiver(config: Record<string, unknown> = {}): { emu: RunningEmulator; receiver: Receiver } {
  const env = {} as { emu: RunningEmulator; receiver: Receiver }
  beforeAll(async () => {
    env.receiver = await startReceiver()
    env.emu = await startTestEmulator({ webhookUrl: env.receiver.url })
  })
  afterAll(async () => {
    await env.emu.close()
    await env.receiver.close()
  })
  beforeEach(async () => {
    await control(env.emu, "/reset", {})
    await control(env.emu, "/config", { webhookUrl: env.receiver.url, ...config })
    env.receiver.received.length = 0
    env.receiver.statuses.length = 0
  })
  return env
}
