import { randomUUID } from "node:crypto"
import type { MedusaContainer } from "@medusajs/framework/types"
import { MedusaError, Modules } from "@medusajs/framework/utils"
import { odemeError } from "../../lib/medusa-errors"
import { messageWithCode } from "../../storefront/error-codes"

/**
 * The session's settle lock (Medusa's locking module: use a Redis or PostgreSQL locking provider when several
 * servers run). Taken by whatever captures (the settle workflow runs inside it) and by whatever must not overlap
 * a capture (Medusa's authorize of a balance transfer, an order's cancel). Through the module's `execute`, whose
 * waiters are queued and woken at the release, not polled: see docs/design.md ("Locks").
 */
export function withSettleLock<T>(container: MedusaContainer, sessionId: string, job: () => Promise<T>): Promise<T> {
  return container.resolve(Modules.LOCKING).execute(settleLockKey(sessionId), job, { timeout: 30 })
}

export const settleLockKey = (sessionId: string) => `odeme:session:${sessionId}`

/** As Medusa's cart workflows take the cart's lock: tried every 0.3 s for up to 30 s. */
export const CART_LOCK = { timeout: 30, retryInterval: 0.3, ttl: 120 } as const

/**
 * Runs `job` holding Medusa's own lock of the cart, if there is a cart: taken as Medusa's cart workflows take it
 * (acquireLockStep: `acquire` of the cart's id, tried every 0.3 s for up to 30 s), since a locking provider's
 * `execute` need not exclude `acquire` (the PostgreSQL provider's does not). For code outside a workflow (the
 * form route, the abandoned order's rule); the settle workflow takes it with acquireLockStep itself.
 */
export async function underCartLock<T>(
  container: MedusaContainer,
  cartId: string | null,
  job: () => Promise<T>,
  waitMs: number = CART_LOCK.timeout * 1000
): Promise<T> {
  if (!cartId) return job()
  const locking = container.resolve(Modules.LOCKING)
  const ownerId = `odeme-settle:${randomUUID()}`
  const giveUpAt = Date.now() + waitMs
  for (;;) {
    try {
      await locking.acquire(cartId, { ownerId, expire: CART_LOCK.ttl })
      break
    } catch {
      // A store route passes this on to the customer (the form route): a code and a text to show, with neither the
      // cart's id nor the locking provider's own words (a storefront may show the message as it is).
      if (Date.now() >= giveUpAt) {
        throw cartBusyError()
      }
      await new Promise((r) => setTimeout(r, CART_LOCK.retryInterval * 1000))
    }
  }
  try {
    return await job()
  } finally {
    await locking.release(cartId, { ownerId })
  }
}

const CART_BUSY = "The cart is being updated by another request (a completion or a capture); please try again in a moment."

/**
 * Thrown as a CONFLICT for code that runs outside a route; a route answers it with `answerCartBusy`, because
 * Medusa's error handler replaces a CONFLICT's message (and so the code in it) with its own generic text.
 */
export function cartBusyError(): MedusaError {
  return odemeError(MedusaError.Types.CONFLICT, "odeme.cart_busy", CART_BUSY)
}

export function isCartBusy(err: unknown): boolean {
  return err instanceof MedusaError && err.code === "odeme.cart_busy"
}

/** The 409 a store route gives for a busy cart, keeping the code a storefront translates. */
export function cartBusyAnswer(): { type: "conflict"; code: "odeme.cart_busy"; message: string } {
  return { type: "conflict", code: "odeme.cart_busy", message: messageWithCode(CART_BUSY, "odeme.cart_busy") }
}
