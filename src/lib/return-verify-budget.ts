/**
 * The store's budget of verify calls for customers' returns, in this process,
 * across all sessions. A return is a customer's browser, so anyone can make
 * them at will for their own sessions; the per-session budget bounds one
 * session, this bounds them all. Webhooks never draw from it: a flood of
 * returns must never delay the service's own notification. A return held back
 * stays due and is verified in the next window without using an attempt
 * (and it proves nothing anyway: the webhook pays).
 */
let windowStart = 0
let used = 0

export function takeReturnVerifyBudget(budget: number, windowSeconds: number, now = Date.now()): { ok: true } | { ok: false; retryAt: Date } {
  if (now - windowStart >= windowSeconds * 1000) {
    windowStart = now
    used = 0
  }
  if (used >= budget) return { ok: false, retryAt: new Date(windowStart + windowSeconds * 1000 + 50) }
  used++
  return { ok: true }
}
