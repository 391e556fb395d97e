import { model } from "@medusajs/framework/utils"

/**
 * A refund Medusa recorded that the service cannot make (it has no refund
 * call): an admin's refund, a canceled order's captured payment, or Medusa's
 * compensation when a paid cart could not become an order. Each is money to
 * pay back by hand in the merchant panel, listed in "needs attention" until
 * a person says it was paid back.
 */
const OdemeRefund = model
  .define("odeme_refund", {
    id: model.id({ prefix: "odref" }).primaryKey(),
    session_id: model.text(),
    /** Medusa's refund (its idempotency key), so a repeated call records one to-do. */
    medusa_refund_id: model.text().nullable(),
    amount: model.text(),
    currency: model.text().nullable(),
    acknowledged_at: model.dateTime().nullable(),
    acknowledged_by: model.text().nullable(),
  })
  .indexes([
    {
      name: "IDX_odeme_refund_medusa_refund_unique",
      on: ["medusa_refund_id"],
      unique: true,
      where: "medusa_refund_id IS NOT NULL AND deleted_at IS NULL",
    },
    { name: "IDX_odeme_refund_open", on: ["created_at"], where: "deleted_at IS NULL AND acknowledged_at IS NULL" },
  ])

export default OdemeRefund
