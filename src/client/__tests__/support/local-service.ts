import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"

export interface Seen {
  method: string
  path: string
  body: string
  at: number
}

export interface LocalService {
  url: string
  seen: Seen[]
  /** Most requests the server was handling at the same time. */
  maxInFlight(): number
  close(): Promise<void>
}

export type Answer = (req: Seen, res: ServerResponse, n: number) => void | Promise<void>

/**
 * A real HTTP server on a free port, for what MockAgent cannot show: undici's
 * per-attempt timeouts, its connection pool and retries after a 5xx head.
 * `answer` gets the request number (1-based) to script a sequence.
 */
export async function startLocalService(answer: Answer): Promise<LocalService> {
  const seen: Seen[] = []
  let inFlight = 0
  let max = 0
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    inFlight++
    max = Math.max(max, inFlight)
    res.on("close", () => inFlight--)
    const chunks: Buffer[] = []
    req.on("data", (c: Buffer) => chunks.push(c))
    req.on("end", () => {
      const entry = { method: req.method ?? "", path: req.url ?? "", body: Buffer.concat(chunks).toString("utf8"), at: Date.now() }
      seen.push(entry)
      void answer(entry, res, seen.length)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    maxInFlight: () => max,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

export function json(res: ServerResponse, status: number, data: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { "content-type": "application/json", ...headers })
  res.end(JSON.stringify(data))
}
