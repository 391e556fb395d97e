/**
 * Load generator of the bench, run as its own process (so it does not share
 * Medusa's event loop):
 *   node -r ./scripts/register-ts.js bench/load.ts '<json>'
 * Prints one JSON line with autocannon's figures. `amount` sends exactly that
 * many requests instead of running for `durationS`. Bursts have a sender of
 * their own (burst-load.ts).
 */
import { randomUUID } from "node:crypto"
import autocannon from "autocannon"

export interface LoadSpec {
  url: string
  connections: number
  durationS?: number
  amount?: number
  body: Record<string, unknown>
  /** A new `uuid` per request (each one a new notification) or the same body every time. */
  unique: boolean
  /** Spread the requests over these `order_id`s (one payment session each). */
  sessions?: string[]
}

async function main() {
  const spec = JSON.parse(process.argv[2]) as LoadSpec
  let n = 0
  const next = () => {
    const order_id = spec.sessions?.length ? spec.sessions[n++ % spec.sessions.length] : spec.body.order_id
    return JSON.stringify({ ...spec.body, order_id, uuid: randomUUID() })
  }
  const result = await autocannon({
    url: spec.url,
    connections: spec.connections,
    ...(spec.amount ? { amount: spec.amount } : { duration: spec.durationS ?? 5 }),
    timeout: 30,
    requests: [
      {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(spec.body),
        ...(spec.unique ? { setupRequest: (req: any) => ({ ...req, body: next() }) } : {}),
      },
    ],
  })
  const out = {
    requests: result.requests.total,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    max: result.latency.max,
    ok2xx: result["2xx"],
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
  }
  process.stdout.write(JSON.stringify(out) + "\n")
}

main().catch((err) => {
  console.error(err)
  process.exit(1)
})
