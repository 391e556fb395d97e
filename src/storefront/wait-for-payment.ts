import type { OdemePaymentSessionStatus } from "./responses"

export interface WaitForPaymentOptions {
  /** Asks the plugin once, e.g. GET /store/odeme/payment-sessions/:id?cart_id= through a server action. */
  fetchStatus: () => Promise<Pick<OdemePaymentSessionStatus, "status"> & Partial<OdemePaymentSessionStatus>>
  /** Pause between two questions (default 3 s). */
  intervalMs?: number
  /** Give up after this long (default 2 min); the order may still be paid later. */
  timeoutMs?: number
  signal?: AbortSignal
  /** Every answer, for a page that shows progress. */
  onStatus?: (status: Pick<OdemePaymentSessionStatus, "status"> & Partial<OdemePaymentSessionStatus>) => void
}

export interface WaitForPaymentResult {
  outcome: "paid" | "failed" | "timeout"
  /** The last answer, null when none arrived. */
  last: (Pick<OdemePaymentSessionStatus, "status"> & Partial<OdemePaymentSessionStatus>) | null
  /** The last error of `fetchStatus`, when the last try failed. */
  error: unknown
}

function abortError(signal: AbortSignal): unknown {
  return signal.reason ?? Object.assign(new Error("The wait for the payment was aborted"), { name: "AbortError" })
}

function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortError(signal))
    const onAbort = () => {
      clearTimeout(timer)
      reject(abortError(signal!))
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort)
      resolve()
    }, ms)
    signal?.addEventListener("abort", onAbort, { once: true })
  })
}

/**
 * Polls until the plugin says paid or failed, for the page a customer waits
 * on after the service sent them back before the webhook was verified. A
 * failing `fetchStatus` (network, 5xx) is retried until the deadline: a
 * waiting page must not give up on one bad answer. Rejects only when aborted.
 */
export async function waitForPayment(opts: WaitForPaymentOptions): Promise<WaitForPaymentResult> {
  const intervalMs = Math.max(0, opts.intervalMs ?? 3_000)
  const deadline = Date.now() + Math.max(0, opts.timeoutMs ?? 120_000)
  let last: WaitForPaymentResult["last"] = null
  let error: unknown = undefined
  for (;;) {
    if (opts.signal?.aborted) throw abortError(opts.signal)
    try {
      last = await opts.fetchStatus()
      error = undefined
      opts.onStatus?.(last)
      if (last.status === "paid" || last.status === "failed") return { outcome: last.status, last, error }
    } catch (e) {
      if (opts.signal?.aborted) throw abortError(opts.signal)
      error = e
    }
    const left = deadline - Date.now()
    if (left <= 0) return { outcome: "timeout", last, error }
    await pause(Math.min(intervalMs, left), opts.signal)
  }
}
