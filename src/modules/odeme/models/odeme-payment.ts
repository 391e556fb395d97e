import { model } from "@medusajs/framework/utils"

/**
 * One row per Medusa payment session handled by this plugin. It is the
 * plugin's own record of what the service was asked and answered, so that a
 * transfer is created at most once, the poller finds due work with an index,
 * and admins can see the payment's story. Providers write it through
 * `PaymentStore` (see ../../lib/payment-store.ts); the columns are the contract.
 */
const OdemePayment = model
  .define("odeme_payment", {
    id: model.id({ prefix: "odpay" }).primaryKey(),
    session_id: model.text(),
    provider: model.text(),
    flow: model.text().nullable(),
    mode: model.text(),
    amount: model.text(),
    currency: model.text(),
    status: model.text().default("pending"),
    creation_state: model.text().default("none"),
    creation_started_at: model.dateTime().nullable(),
    service_uuid: model.text().nullable(),
    tracking_no: model.text().nullable(),
    payer_name: model.text().nullable(),
    bank_id: model.number().nullable(),
    bank_name: model.text().nullable(),
    account_holder: model.text().nullable(),
    iban: model.text().nullable(),
    charged_amount: model.text().nullable(),
    charged_currency: model.text().nullable(),
    next_check_at: model.dateTime().nullable(),
    check_attempts: model.number().default(0),
    last_checked_at: model.dateTime().nullable(),
    last_result: model.text().nullable(),
    review_reason: model.text().nullable(),
    cart_id: model.text().nullable(),
    order_id: model.text().nullable(),
    metadata: model.json().nullable(),
  })
  .indexes([
    { name: "IDX_odeme_payment_session_id_unique", on: ["session_id"], unique: true },
    { name: "IDX_odeme_payment_service_uuid", on: ["service_uuid"] },
    { name: "IDX_odeme_payment_due", on: ["status", "next_check_at"] },
  ])

export default OdemePayment
