import type { Knex } from "@medusajs/framework/mikro-orm/knex"
import { newEntityId } from "./entity-id"
import type { OdemeRefundRow } from "../types"
import { REFUND } from "./tables"

export interface RefundInput {
  session_id: string
  medusa_refund_id: string | null
  amount: string
  currency: string | null
}

/** One to-do per Medusa refund: a repeated call (Medusa's retries) records nothing new. */
export async function recordRefund(db: Knex, r: RefundInput): Promise<void> {
  await db.raw(
    `insert into ${REFUND} (id, session_id, medusa_refund_id, amount, currency) values (?, ?, ?, ?, ?)
     on conflict (medusa_refund_id) where medusa_refund_id is not null and deleted_at is null do nothing`,
    [newEntityId("odref"), r.session_id, r.medusa_refund_id, r.amount, r.currency]
  )
}

export async function acknowledgeRefund(db: Knex, id: string, actor: string | null): Promise<OdemeRefundRow | null> {
  const rows = await db(REFUND)
    .whereNull("deleted_at")
    .where({ id })
    .update({ acknowledged_at: db.raw("coalesce(acknowledged_at, now())"), acknowledged_by: actor, updated_at: new Date() })
    .returning("*")
  return (rows[0] as OdemeRefundRow | undefined) ?? null
}
