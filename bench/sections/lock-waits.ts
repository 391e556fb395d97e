import { Modules } from "@medusajs/framework/utils"
import { round, stats } from "../support"

/**
 * Where a payment's time goes while it waits for a lock, seen from outside
 * the plugin: the bench wraps the methods of Medusa's locking module (the
 * one instance every workflow and the plugin resolve) for the length of a
 * section, and restores them after. Nothing of the plugin changes.
 *
 * - `execute` (the plugin's per-session settle lock): time from the call to
 *   the job's start, and the job's own time.
 * - `acquire` (cart locks: Medusa's cart workflows and the plugin's
 *   `underCartLock`, both retrying every 0.3 s): each refused attempt, and
 *   for each caller that was refused at least once, the time from its first
 *   refusal to the acquire that succeeded. A caller is its key and owner:
 *   the plugin's owners start with `odeme-settle:`, Medusa's carry none.
 */
export interface LockWaits {
  settle_lock: { calls: number; wait_ms: ReturnType<typeof stats>; job_ms: ReturnType<typeof stats> }
  cart_lock: Record<"plugin" | "medusa", { acquired: number; refused: number; waited: number; wait_ms: ReturnType<typeof stats> }>
}

type Wrapped = { stop(): LockWaits }

const callerOf = (ownerId: unknown) => (typeof ownerId === "string" && ownerId.startsWith("odeme-settle:") ? "plugin" : "medusa")

/** Starts recording; `stop()` restores the module's methods and returns what was seen. Keys not matching `keep` are ignored. */
export function recordLockWaits(container: any, keep: (key: string) => boolean = () => true): Wrapped {
  const locking = container.resolve(Modules.LOCKING)
  const original = { execute: locking.execute, acquire: locking.acquire }
  const settleWaits: number[] = []
  const settleJobs: number[] = []
  const cart = {
    plugin: { acquired: 0, refused: 0, waits: [] as number[] },
    medusa: { acquired: 0, refused: 0, waits: [] as number[] },
  }
  const firstRefusal = new Map<string, number>()
  const keysOf = (keys: string | string[]) => (Array.isArray(keys) ? keys : [keys])

  locking.execute = async function (keys: string | string[], job: () => Promise<unknown>, ...rest: unknown[]) {
    if (!keysOf(keys).some(keep)) return original.execute.call(this, keys, job, ...rest)
    const called = performance.now()
    let started = 0
    try {
      return await original.execute.call(
        this,
        keys,
        async () => {
          started = performance.now()
          settleWaits.push(started - called)
          return job()
        },
        ...rest
      )
    } finally {
      if (started) settleJobs.push(performance.now() - started)
    }
  }
  locking.acquire = async function (keys: string | string[], args: { ownerId?: string } = {}, ...rest: unknown[]) {
    if (!keysOf(keys).some(keep)) return original.acquire.call(this, keys, args, ...rest)
    const caller = callerOf(args?.ownerId)
    const id = `${keysOf(keys).join(",")}|${args?.ownerId ?? ""}`
    try {
      const out = await original.acquire.call(this, keys, args, ...rest)
      cart[caller].acquired++
      const first = firstRefusal.get(id)
      if (first !== undefined) {
        cart[caller].waits.push(performance.now() - first)
        firstRefusal.delete(id)
      }
      return out
    } catch (err) {
      cart[caller].refused++
      if (!firstRefusal.has(id)) firstRefusal.set(id, performance.now())
      throw err
    }
  }
  return {
    stop() {
      locking.execute = original.execute
      locking.acquire = original.acquire
      const side = (c: (typeof cart)["plugin"]) => ({
        acquired: c.acquired,
        refused: c.refused,
        waited: c.waits.length,
        wait_ms: stats(c.waits.map((w) => round(w, 1))),
      })
      return {
        settle_lock: { calls: settleWaits.length, wait_ms: stats(settleWaits), job_ms: stats(settleJobs) },
        cart_lock: { plugin: side(cart.plugin), medusa: side(cart.medusa) },
      }
    },
  }
}
