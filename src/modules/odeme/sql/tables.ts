import type { Context } from "@medusajs/framework/types"
import type { Knex } from "@medusajs/framework/mikro-orm/knex"

export const PAYMENT = "odeme_payment"
export const NOTIFICATION = "odeme_notification"
export const CHARGE = "odeme_charge"
export const REFUND = "odeme_refund"
const JSON_COLUMNS = new Set(["metadata", "payload", "verify_result"])

/** The knex of the manager Medusa injected (the caller's transaction when there is one). */
export function knexOf(ctx: Context): Knex {
  return (ctx.manager as unknown as { getKnex(): Knex }).getKnex()
}

/** An update patch as columns: undefined left out, JSON columns encoded. */
export function serialize(patch: object): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(patch)) {
    if (v === undefined) continue
    out[k] = JSON_COLUMNS.has(k) && v !== null ? JSON.stringify(v) : v
  }
  return out
}
