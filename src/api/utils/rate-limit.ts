import type { MedusaNextFunction, MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { clientAddress, fromServiceAddress } from "./client-ip"
import { odemeModule } from "../../modules/odeme/resolve"

const WINDOW_MS = 60_000
const windows = new Map<string, { start: number; count: number }>()
let lastSweep = 0

/**
 * Only when the merchant sets `webhook.maxPerMinutePerAddress` (off by
 * default: behind a TLS proxy the service shares its address with every
 * sender, and its genuine deliveries would be refused with the junk): each
 * client address may deliver that many notifications a minute to this
 * process; more get 429 with Retry-After.
 */
export function limitPerAddress(req: MedusaRequest, res: MedusaResponse, next: MedusaNextFunction) {
  const options = odemeModule(req.scope).odemeOptions
  const limit = options.webhook.maxPerMinutePerAddress
  // The service's own addresses, when the merchant named them, are never refused.
  if (limit === undefined || fromServiceAddress(req, options)) return next()
  const now = Date.now()
  if (now - lastSweep > WINDOW_MS) {
    for (const [k, w] of windows) if (now - w.start >= WINDOW_MS) windows.delete(k)
    lastSweep = now
  }
  const key = clientAddress(req, options.trustProxy)
  let w = windows.get(key)
  if (!w || now - w.start >= WINDOW_MS) {
    w = { start: now, count: 0 }
    windows.set(key, w)
  }
  w.count++
  if (w.count > limit) {
    res.setHeader("Retry-After", String(Math.ceil((w.start + WINDOW_MS - now) / 1000)))
    res.status(429).json({ type: "too_many_requests", message: "Too many notifications from this address; deliver again later." })
    return
  }
  next()
}
