import type { MedusaNextFunction, MedusaRequest, MedusaResponse } from "@medusajs/framework/http"

/**
 * The transfer API needs the customer's IP (spec §4.5 `client_ip`). It is
 * taken from the request that creates the payment session, never from the
 * body: whatever the storefront sent as `data.client_ip` is replaced.
 * Behind a proxy, Express's `trust proxy` decides what `req.ip` is.
 */
export function attachClientIp(req: MedusaRequest, _res: MedusaResponse, next: MedusaNextFunction) {
  const body = req.body as { provider_id?: unknown; data?: Record<string, unknown> } | undefined
  if (body && typeof body.provider_id === "string" && body.provider_id.startsWith("pp_odeme-")) {
    const ip = normalizeIp(req.ip ?? req.socket?.remoteAddress ?? "")
    body.data = { ...(body.data && typeof body.data === "object" ? body.data : {}), client_ip: ip }
    const validated = (req as unknown as { validatedBody?: { data?: Record<string, unknown> } }).validatedBody
    if (validated) validated.data = { ...(validated.data ?? {}), client_ip: ip }
  }
  next()
}

export function normalizeIp(ip: string): string {
  return ip.startsWith("::ffff:") ? ip.slice(7) : ip || "0.0.0.0"
}
