import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { ContainerRegistrationKeys, generateEntityId } from "@medusajs/framework/utils"
import { randomUUID } from "node:crypto"

/**
 * The durable-ingest limit (bench only, never part of the plugin): one
 * INSERT into a table of the inbox's shape (bench_ingest_ref, created by the
 * bench as `LIKE odeme_notification INCLUDING ALL`), then 200. Anything the
 * plugin's webhook route does on top of this is its overhead.
 */
export async function POST(req: MedusaRequest, res: MedusaResponse) {
  const body = (req.body ?? {}) as Record<string, string | null>
  await req.scope.resolve(ContainerRegistrationKeys.PG_CONNECTION).raw(
    `insert into bench_ingest_ref (id, source, dedupe_key, session_id, service_uuid, status, type, payload, raw_body)
     values (?, 'webhook', ?, ?, ?, ?, ?, ?::jsonb, null)`,
    [
      generateEntityId(undefined, "odntf"),
      randomUUID(),
      body.order_id ?? null,
      body.uuid ?? null,
      body.status ?? null,
      body.type ?? null,
      JSON.stringify(body),
    ]
  )
  res.status(200).json({ received: true })
}
