import type { MedusaNextFunction, MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { clientAddress } from "./client-ip"
import { odemeModule } from "./odeme-module"

const WINDOW_MS = 60_000
const windows = new Map<string, { start: number; count: number }>()
let lastSweep = 0

/**
 * Forged notifications must not fill the inbox: each client address may
 * deliver `webhook.maxPerMinutePerAddress` notifications a minute to this
 * process; more get 429 with Retry-After (the service redelivers). The
 * default is far above what the service sends, bursts after an outage included.
 */
export function limitPerAddress(req: MedusaRequest, res: MedusaResponse, next: MedusaNextFunction) {
  const options = odemeModule(req.scope).odemeOptions
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
  if (w.count > options.webhook.maxPerMinutePerAddress) {
    res.setHeader("Retry-After", String(Math.ceil((w.start + WINDOW_MS - now) / 1000)))
    res.status(429).json({ type: "too_many_requests", message: "Too many notifications from this address; deliver again later." })
    return
  }
  next()
}
