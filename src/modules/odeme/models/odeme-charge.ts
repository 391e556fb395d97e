import { model } from "@medusajs/framework/utils"
import { CHARGE_ROLES, CHARGE_STATUSES } from "./states"

/**
 * Every payment the service reported for a session, one row per `uuid`. A
 * session can see several (the same form paid twice, a retry after a
 * failure); this is where a second charge becomes visible instead of being
 * absorbed by the session's one state.
 */
const OdemeCharge = model
  .define("odeme_charge", {
    id: model.id({ prefix: "odchg" }).primaryKey(),
    session_id: model.text(),
    service_uuid: model.text(),
    status: model.enum([...CHARGE_STATUSES]),
    role: model.enum([...CHARGE_ROLES]).default("none"),
    type: model.text().nullable(),
    amount: model.text().nullable(),
    currency: model.text().nullable(),
    detail: model.text().nullable(),
    verified_at: model.dateTime().nullable(),
    /** An admin confirmed the duplicate or late charge was handled (refunded in the merchant panel). */
    acknowledged_at: model.dateTime().nullable(),
    acknowledged_by: model.text().nullable(),
  })
  .indexes([
    { name: "IDX_odeme_charge_session_uuid_unique", on: ["session_id", "service_uuid"], unique: true },
    { name: "IDX_odeme_charge_role", on: ["role", "acknowledged_at"] },
  ])

export default OdemeCharge
