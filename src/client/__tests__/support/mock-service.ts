import { inspect } from "node:util"
import { MockAgent, type Interceptable } from "undici"
import { OdemeApiError, OdemeClient, type OdemeClientOptions } from "../../index"

/**
 * The client against undici's MockAgent. MockAgent does not model undici's
 * own timeouts, connection limits or response pausing (a retry decided
 * after a 5xx head needs the body held back), so those are tested against
 * a real socket (local-service.ts).
 */

export const BASE = "http://127.0.0.1:4010"
export const KEY = "sk_SECRET_do_not_leak_123"
export const UUID = "3f0c2a7e-9b7d-4c1e-8a55-0d2f6c9e1b42"
export const JSON_HEADERS = { headers: { "content-type": "application/json" } }

export const TRANSFER = {
  br_tracking_no: 123456,
  br_name: "Ada Lovelace",
  br_price: "200.50",
  br_currency: "TRY",
  br_bank_name: "Ziraat",
  br_iban: "TR00 0000 0000",
  sale_status: "1",
  sale_date: "1700000000",
  extra_field: "kept",
}

/** A valid create input; tests override one field at a time. */
export const CREATE_INPUT = { bank_id: 1, amount: 1, currency: "TRY" as const, order_id: "1", customer_name: "a", client_ip: "b" }
export const VERIFY_INPUT = { order_id: "1", uuid: UUID, status: "successful", hash: "h" }

export type Captured = { method: string; path: string; headers: Record<string, string>; body?: string }

function lowerHeaders(h: unknown): Record<string, string> {
  const out: Record<string, string> = {}
  if (Array.isArray(h)) {
    for (let i = 0; i < h.length; i += 2) out[String(h[i]).toLowerCase()] = String(h[i + 1])
  } else if (h && typeof h === "object") {
    for (const [k, v] of Object.entries(h as Record<string, unknown>)) out[k.toLowerCase()] = String(v)
  }
  return out
}

export async function catchErr(p: Promise<unknown>): Promise<OdemeApiError> {
  try {
    await p
  } catch (e) {
    expect(e).toBeInstanceOf(OdemeApiError)
    return e as OdemeApiError
  }
  throw new Error("expected a rejection")
}

/** Log lines written by the clients a test made. */
export function captureLogs(): { lines: string[]; logger: NonNullable<OdemeClientOptions["logger"]> } {
  const lines: string[] = []
  return { lines, logger: { debug: (m) => lines.push(m), warn: (m) => lines.push(m), error: (m) => lines.push(m) } }
}

export function expectNoKey(err: OdemeApiError, lines: string[] = []) {
  for (const text of [String(err), err.message, JSON.stringify(err), err.stack ?? "", inspect(err), ...lines]) {
    expect(text).not.toContain(KEY)
  }
  expect((err as { cause?: unknown }).cause).toBeUndefined()
}

export interface MockService {
  agent: MockAgent
  pool: Interceptable
  lines: string[]
  calls: Captured[]
  /** Interceptor that records the request and answers with `status`/`data`. */
  on(method: string, path: string, status: number, data: unknown, times?: number): ReturnType<ReturnType<Interceptable["intercept"]>["reply"]>
  makeClient(extra?: Partial<OdemeClientOptions>): OdemeClient
}

/** A fresh MockAgent per test (registered with beforeEach/afterEach); read the fields inside tests only. */
export function useMockService(): MockService {
  const s = { lines: [] as string[], calls: [] as Captured[] } as MockService
  beforeEach(() => {
    s.agent = new MockAgent()
    s.agent.disableNetConnect()
    s.pool = s.agent.get(BASE)
    s.lines = []
    s.calls = []
  })
  afterEach(async () => {
    await s.agent.close()
  })
  s.on = (method, path, status, data, times = 1) =>
    s.pool
      .intercept({ method, path })
      .reply((opts) => {
        s.calls.push({
          method: opts.method,
          path: opts.path,
          headers: lowerHeaders(opts.headers),
          body: typeof opts.body === "string" ? opts.body : opts.body ? String(opts.body) : undefined,
        })
        return { statusCode: status, data: typeof data === "string" ? data : JSON.stringify(data), responseOptions: JSON_HEADERS }
      })
      .times(times)
  s.makeClient = (extra = {}) =>
    new OdemeClient({
      baseUrl: BASE + "/",
      apiKey: KEY,
      apiId: 77,
      dispatcher: s.agent,
      retries: 2,
      retryBaseDelayMs: 1,
      timeoutMs: 2_000,
      logger: { debug: (m) => s.lines.push(m), warn: (m) => s.lines.push(m), error: (m) => s.lines.push(m) },
      ...extra,
    })
  return s
}
