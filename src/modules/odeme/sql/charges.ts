import type { Knex } from "@medusajs/framework/mikro-orm/knex"
import type { ChargeRole } from "../models/states"
import type { OdemeChargeRow } from "../types"
import { CHARGE } from "./tables"
import { newEntityId } from "./entity-id"

export type ChargeInput = Pick<OdemeChargeRow, "session_id" | "service_uuid" | "status"> &
  Partial<Pick<OdemeChargeRow, "type" | "amount" | "currency" | "detail">> & { role?: ChargeRole; verified: boolean }

export async function recordCharge(db: Knex, charge: ChargeInput): Promise<OdemeChargeRow> {
  const { rows } = await db.raw(
    `insert into ${CHARGE} (id, session_id, service_uuid, status, role, type, amount, currency, detail, verified_at)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?, ${charge.verified ? "now()" : "null"})
     on conflict (session_id, service_uuid) where deleted_at is null
     do update set
       -- Money reported once stays reported: a later pending or failed answer never hides a success.
       status = case when ${CHARGE}.status = 'successful' then ${CHARGE}.status else excluded.status end,
       role = coalesce(?, ${CHARGE}.role),
       type = coalesce(excluded.type, ${CHARGE}.type),
       amount = coalesce(excluded.amount, ${CHARGE}.amount),
       currency = coalesce(excluded.currency, ${CHARGE}.currency),
       detail = coalesce(excluded.detail, ${CHARGE}.detail),
       verified_at = coalesce(${CHARGE}.verified_at, excluded.verified_at),
       updated_at = now()
     returning *`,
    [
      newEntityId("odchg"),
      charge.session_id,
      charge.service_uuid,
      charge.status,
      charge.role ?? "none",
      charge.type ?? null,
      charge.amount ?? null,
      charge.currency ?? null,
      charge.detail ?? null,
      // "none" only for a new row: it never overwrites a role already given.
      charge.role && charge.role !== "none" ? charge.role : null,
    ]
  )
  return rows[0]
}

export async function acknowledgeCharge(db: Knex, id: string, actor: string | null): Promise<OdemeChargeRow | null> {
  const rows = await db(CHARGE)
    .whereNull("deleted_at")
    .where({ id })
    .whereIn("role", ["duplicate", "late", "rejected"])
    .update({ acknowledged_at: db.raw("coalesce(acknowledged_at, now())"), acknowledged_by: actor, updated_at: new Date() })
    .returning("*")
  return (rows[0] as OdemeChargeRow | undefined) ?? null
}
