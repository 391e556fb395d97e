import type { OdemePaymentSessionStatus } from "./responses"

/** The longest a return page waits for the plugin's verdict before it says, calmly, that the payment is being confirmed. */
export const WAIT_LIMIT_MS = 60_000

export interface WaitForPaymentOptions {
  /** Asks the plugin once, e.g. GET /store/odeme/payment-sessions/:id?cart_id= through a server action. */
  fetchStatus: () => Promise<Pick<OdemePaymentSessionStatus, "status"> & Partial<OdemePaymentSessionStatus>>
  /** Pause between two questions (default 3 s). */
  intervalMs?: number
  /** Give up after this long (default 60 s, the longest a shopper should watch a spinner); the order may still be paid later. */
  timeoutMs?: number
  /** Stop as well when a transfer exists and only its money is awaited (state `awaiting_transfer`): outcome `transfer_created`. */
  stopOnTransfer?: boolean
  signal?: AbortSignal
  /** Every answer, for a page that shows progress. */
  onStatus?: (status: Pick<OdemePaymentSessionStatus, "status"> & Partial<OdemePaymentSessionStatus>) => void
}

export interface WaitForPaymentResult {
  outcome: "paid" | "failed" | "timeout" | "transfer_created"
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
  const deadline = Date.now() + Math.max(0, opts.timeoutMs ?? WAIT_LIMIT_MS)
  let last: WaitForPaymentResult["last"] = null
  let error: unknown = undefined
  for (;;) {
    if (opts.signal?.aborted) throw abortError(opts.signal)
    try {
      last = await opts.fetchStatus()
      error = undefined
      opts.onStatus?.(last)
      if (last.status === "paid" || last.status === "failed") return { outcome: last.status, last, error }
      if (opts.stopOnTransfer && last.state === "awaiting_transfer") return { outcome: "transfer_created", last, error }
    } catch (e) {
      if (opts.signal?.aborted) throw abortError(opts.signal)
      error = e
    }
    const left = deadline - Date.now()
    if (left <= 0) return { outcome: "timeout", last, error }
    await pause(Math.min(intervalMs, left), opts.signal)
  }
}

/** What the completion of a cart answers (Medusa's `POST /store/carts/:id/complete`), or `order: null` when the storefront already navigates to it. */
export type OdemeCartCompletion<O> = { type: "order"; order: O } | { type: "cart"; error?: unknown }

export interface CompleteWhenPaidOptions<O> extends Omit<WaitForPaymentOptions, "stopOnTransfer"> {
  /**
   * Completes the cart, once. May throw Medusa's 409 "Cart is already being completed by another
   * request" (the webhook is completing it right now): it is called once more after `conflictWaitMs`.
   */
  completeCart: () => Promise<OdemeCartCompletion<O>>
  /** Pause before the one retry after a 409 (default 3 s). */
  conflictWaitMs?: number
}

export type CompleteWhenPaidResult<O> =
  | { outcome: "order"; order: O }
  | { outcome: "failed"; last: WaitForPaymentResult["last"] }
  /**
   * Not confirmed within the wait, or Medusa did not place the order yet: tell the shopper the payment
   * is being confirmed, that the order follows (the webhook completes the cart) and not to pay again:
   * `odemeWaitingText("confirming", …)`, which promises an e-mail only where the store sends one.
   */
  | { outcome: "confirming"; last: WaitForPaymentResult["last"]; error: unknown }

/** Medusa's answer when another request (the plugin's webhook) is completing the same cart. */
export function isCartCompletionConflict(error: unknown): boolean {
  if (!error || typeof error !== "object") return typeof error === "string" && /already being completed/i.test(error)
  const e = error as { status?: unknown; response?: { status?: unknown }; message?: unknown }
  return e.status === 409 || e.response?.status === 409 || (typeof e.message === "string" && /already being completed/i.test(e.message))
}

/**
 * The return page's whole job: poll the session status (bounded by `timeoutMs`, at most
 * WAIT_LIMIT_MS), and complete the cart **once**, when the plugin says paid or, for a transfer,
 * once the transfer exists. Never in a loop: each completion that fails burns an order number
 * and every one races the webhook. A 409 (the webhook is completing it) waits and asks once more,
 * which answers the order the webhook created. Rejects only when aborted or when completing fails
 * with another error.
 */
export async function completeWhenPaid<O>(opts: CompleteWhenPaidOptions<O>): Promise<CompleteWhenPaidResult<O>> {
  const timeoutMs = Math.min(Math.max(0, opts.timeoutMs ?? WAIT_LIMIT_MS), WAIT_LIMIT_MS)
  const waited = await waitForPayment({ ...opts, timeoutMs, stopOnTransfer: true })
  if (waited.outcome === "failed") return { outcome: "failed", last: waited.last }
  if (waited.outcome === "timeout") return { outcome: "confirming", last: waited.last, error: waited.error }
  let completion: OdemeCartCompletion<O>
  try {
    completion = await opts.completeCart()
  } catch (e) {
    if (!isCartCompletionConflict(e)) throw e
    await pause(Math.max(0, opts.conflictWaitMs ?? 3_000), opts.signal)
    try {
      completion = await opts.completeCart()
    } catch (again) {
      // Still being completed: the webhook places the order; the shopper is told it follows.
      if (isCartCompletionConflict(again)) return { outcome: "confirming", last: waited.last, error: again }
      throw again
    }
  }
  if (completion.type === "order") return { outcome: "order", order: completion.order }
  return { outcome: "confirming", last: waited.last, error: completion.error }
}
