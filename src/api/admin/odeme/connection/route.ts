import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { OdemeClient } from "../../../../client"
import { odemeModule } from "../../../../modules/odeme/resolve"
import { testConnection } from "./classify"

/**
 * POST /admin/odeme/connection ("Test connection"): asks the service with
 * the configured key and answers `{ ok, code, checks }` in codes. A client
 * of its own, without retries, so a dead service is reported after one
 * timeout rather than after every retry. Never the API key.
 */
export async function POST(req: MedusaRequest, res: MedusaResponse) {
  const o = odemeModule(req.scope).odemeOptions
  const client = new OdemeClient({ baseUrl: o.baseUrl, apiKey: o.apiKey, apiId: o.apiId, timeoutMs: o.httpTimeoutMs, retries: 0 })
  try {
    res.json(await testConnection(client, o))
  } finally {
    await client.close().catch(() => undefined)
  }
}
