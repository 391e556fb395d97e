import { Agent, request } from "undici"

/** A raw HTTP answer; redirects are never followed. */
export interface RawAnswer {
  status: number
  headers: Record<string, string>
  text: string
  durationMs: number
}

export interface RawRequest {
  method: "GET" | "POST"
  /** Path with real ids, appended to the base URL. */
  path: string
  headers?: Record<string, string>
  body?: string
}

const MAX_BODY = 1024 * 1024

/**
 * Minimal HTTP for the contract run: the same transport as the client
 * (undici), but the raw body is kept so its shape can be compared, and
 * redirects are left to the caller (Quick Checkout is judged on them).
 */
export class ContractHttp {
  readonly #agent: Agent
  readonly #baseUrl: string
  readonly #timeoutMs: number

  constructor(baseUrl: string, timeoutMs: number) {
    this.#baseUrl = baseUrl
    this.#timeoutMs = timeoutMs
    this.#agent = new Agent({
      keepAliveTimeout: 5_000,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      connect: { timeout: timeoutMs },
    })
  }

  async send(req: RawRequest): Promise<RawAnswer> {
    const started = Date.now()
    const controller = new AbortController()
    const timer = setTimeout(() => controller.abort(), this.#timeoutMs)
    try {
      const res = await request(`${this.#baseUrl}${req.path}`, {
        dispatcher: this.#agent,
        method: req.method,
        headers: req.headers,
        body: req.body,
        signal: controller.signal,
      })
      const chunks: Buffer[] = []
      let size = 0
      for await (const chunk of res.body) {
        const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array)
        size += buf.length
        if (size > MAX_BODY) {
          res.body.destroy()
          break
        }
        chunks.push(buf)
      }
      const headers: Record<string, string> = {}
      for (const [k, v] of Object.entries(res.headers)) {
        if (v !== undefined) headers[k.toLowerCase()] = Array.isArray(v) ? v.join(", ") : String(v)
      }
      return { status: res.statusCode, headers, text: Buffer.concat(chunks).toString("utf8"), durationMs: Date.now() - started }
    } catch (err) {
      if (controller.signal.aborted) throw new Error(`no answer within ${this.#timeoutMs} ms`)
      const code = (err as { code?: unknown })?.code
      const msg = err instanceof Error ? err.message : String(err)
      throw new Error(typeof code === "string" ? `${code}: ${msg}` : msg)
    } finally {
      clearTimeout(timer)
    }
  }

  close(): Promise<void> {
    return this.#agent.close()
  }
}
