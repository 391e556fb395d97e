import type { MedusaNextFunction, MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { odemeModule } from "./odeme-module"

/**
 * Who is calling: the address that connected, unless the merchant said a
 * proxy in front of Medusa is trusted (`trustProxy`), in which case the
 * address that proxy appended to X-Forwarded-For names the client. Medusa's Express trusts one
 * proxy hop by default, so `req.ip` cannot be used: any customer could
 * choose it with a header.
 */
export function clientAddress(req: MedusaRequest, trustProxy: boolean): string {
  if (trustProxy) {
    // The right-most entry is the one the trusted proxy added; the ones before it are the client's word.
    const forwarded = req.headers["x-forwarded-for"]
    const hops = (Array.isArray(forwarded) ? forwarded.join(",") : forwarded ?? "").split(",").map((h) => h.trim()).filter(Boolean)
    if (hops.length) return normalizeIp(hops[hops.length - 1])
  }
  return normalizeIp(req.socket?.remoteAddress ?? "")
}

/**
 * The transfer API needs the customer's IP (spec §4.5 `client_ip`). It is
 * taken from the request that creates the payment session, never from the
 * body: whatever the storefront sent as `data.client_ip` is replaced.
 */
export function attachClientIp(req: MedusaRequest, _res: MedusaResponse, next: MedusaNextFunction) {
  const body = req.body as { provider_id?: unknown; data?: Record<string, unknown> } | undefined
  if (body && typeof body.provider_id === "string" && body.provider_id.startsWith("pp_odeme-")) {
    const ip = clientAddress(req, odemeModule(req.scope).odemeOptions.trustProxy)
    body.data = { ...(body.data && typeof body.data === "object" ? body.data : {}), client_ip: ip }
    const validated = (req as unknown as { validatedBody?: { data?: Record<string, unknown> } }).validatedBody
    if (validated) validated.data = { ...(validated.data ?? {}), client_ip: ip }
  }
  next()
}

export function normalizeIp(ip: string): string {
  return ip.startsWith("::ffff:") ? ip.slice(7) : ip || "0.0.0.0"
}
