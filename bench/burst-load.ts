/**
 * The burst sender of the bench, run as its own process like bench/load.ts:
 *   node -r ./scripts/register-ts.js bench/burst-load.ts '<json>'
 * Sends `amount` requests at once, one connection each, and prints one JSON
 * line with the same fields as load.ts.
 *
 * Why not autocannon here: a burst is over in a few hundred milliseconds, and
 * on a 2-core machine the sender shares the cores with Medusa and PostgreSQL.
 * autocannon builds, sends and parses each request while the burst runs
 * (against a server that answers at once, its p99 for 100 at once was 70 ms,
 * and 104 ms for 200). This sender builds every request and opens every
 * connection before the clock starts, then writes them all and only waits for
 * the answers: it measures the server, as a payment service sending from its
 * own machines would see it. Like autocannon, each request's time runs from
 * its write to the end of its answer.
 */
import net from "node:net"
import { randomUUID } from "node:crypto"

export interface BurstSpec {
  url: string
  amount: number
  body: Record<string, unknown>
  /** One `order_id` per request, in turn (each a payment session of its own). */
  sessions: string[]
}

const TIMEOUT_MS = 30_000

async function main() {
  const spec = JSON.parse(process.argv[2]) as BurstSpec
  const url = new URL(spec.url)
  const requests = Array.from({ length: spec.amount }, (_, i) => {
    const body = JSON.stringify({ ...spec.body, order_id: spec.sessions[i % spec.sessions.length], uuid: randomUUID() })
    return Buffer.from(
      `POST ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`
    )
  })
  const sockets = await Promise.all(requests.map(() => connect(url)))
  const answers = await Promise.all(sockets.map((socket, i) => exchange(socket, requests[i])))
  const ms = answers
    .filter((a) => a.status > 0)
    .map((a) => a.ms)
    .sort((a, b) => a - b)
  const pct = (p: number) => (ms.length ? Math.round(ms[Math.min(ms.length - 1, Math.ceil((p / 100) * ms.length) - 1)]) : NaN)
  const ok2xx = answers.filter((a) => a.status >= 200 && a.status < 300).length
  const out = {
    requests: answers.length,
    rps: ms.length ? Math.round((ms.length / ms[ms.length - 1]) * 1000) : 0,
    p50: pct(50),
    p99: pct(99),
    max: ms.length ? Math.round(ms[ms.length - 1]) : NaN,
    ok2xx,
    non2xx: answers.filter((a) => a.status > 0 && (a.status < 200 || a.status >= 300)).length,
    errors: answers.filter((a) => a.status === -1).length,
    timeouts: answers.filter((a) => a.status === 0).length,
  }
  process.stdout.write(JSON.stringify(out) + "\n")
}

function connect(url: URL): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(url.port || 80), url.hostname, () => resolve(socket))
    socket.once("error", reject)
  })
}

/** status: the HTTP status, 0 for a timeout, -1 for a connection error. */
function exchange(socket: net.Socket, request: Buffer): Promise<{ status: number; ms: number }> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = []
    let start = 0n
    let done = false
    const finish = (status: number) => {
      if (done) return
      done = true
      clearTimeout(timer)
      socket.destroy()
      resolve({ status, ms: Number(process.hrtime.bigint() - start) / 1e6 })
    }
    const timer = setTimeout(() => finish(0), TIMEOUT_MS)
    socket.on("data", (chunk) => {
      chunks.push(chunk)
      const status = complete(Buffer.concat(chunks))
      if (status) finish(status)
    })
    socket.on("end", () => finish(complete(Buffer.concat(chunks), true) || -1))
    socket.on("error", () => finish(-1))
    start = process.hrtime.bigint()
    socket.write(request)
  })
}

/** The status once the whole answer is in (headers and Content-Length bytes, or the connection's end). */
function complete(data: Buffer, ended = false): number {
  const head = data.indexOf("\r\n\r\n")
  if (head < 0) return 0
  const text = data.subarray(0, head).toString("latin1")
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(text)?.[1] ?? -1)
  const length = /\r\ncontent-length: *(\d+)/i.exec(text)
  if (length) return data.length - head - 4 >= Number(length[1]) ? status : 0
  return ended ? status : 0
}

main().catch((err) => {
  console.error(err)
  process.exit(1)
})
