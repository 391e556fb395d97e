/**
 * Load generator for the webhook-ingest benchmark, run as its own process
 * (so it does not share Medusa's event loop):
 *   node -r ./scripts/register-ts.js bench/load.ts '<json>'
 * Prints one JSON line with autocannon's figures.
 */
import { randomUUID } from "node:crypto"
import autocannon from "autocannon"

interface LoadSpec {
  url: string
  connections: number
  durationS: number
  body: Record<string, unknown>
  /** A new `uuid` per request (each one a new notification) or the same body every time. */
  unique: boolean
}

async function main() {
  const spec = JSON.parse(process.argv[2]) as LoadSpec
  const headers = { "content-type": "application/json" }
  const fixed = JSON.stringify(spec.body)
  const result = await autocannon({
    url: spec.url,
    connections: spec.connections,
    duration: spec.durationS,
    requests: [
      {
        method: "POST",
        headers,
        body: fixed,
        ...(spec.unique ? { setupRequest: (req: any) => ({ ...req, body: JSON.stringify({ ...spec.body, uuid: randomUUID() }) }) } : {}),
      },
    ],
  })
  const out = {
    requests: result.requests.total,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    mean: result.latency.average,
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
