import { model } from "@medusajs/framework/utils"
import { CREATION_STATES, KEY_MODES, PAYMENT_FLOWS, PAYMENT_STATES, REVIEW_CODES } from "./states"

/**
 * One row per Medusa payment session handled by this plugin: what the
 * service was asked and answered. `status` (with `review_code` and
 * `version`) is written only by the transition function; `version` grows
 * with every transition so two writers never both win.
 */
const OdemePayment = model
  .define("odeme_payment", {
    id: model.id({ prefix: "odpay" }).primaryKey(),
    session_id: model.text(),
    provider: model.text(),
    flow: model.enum([...PAYMENT_FLOWS]).nullable(),
    mode: model.enum([...KEY_MODES]),
    amount: model.text(),
    currency: model.text(),
    status: model.enum([...PAYMENT_STATES]).default("pending"),
    review_code: model.enum([...REVIEW_CODES]).nullable(),
    version: model.number().default(0),
    creation_state: model.enum([...CREATION_STATES]).default("none"),
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
    /**
     * The poller's lease on a due transfer (service.ts claimDueTransfers). Apart from
     * next_check_at and in no index, so a claim changes no indexed column and can be a HOT update.
     */
    claimed_until: model.dateTime().nullable(),
    check_attempts: model.number().default(0),
    last_checked_at: model.dateTime().nullable(),
    last_result: model.text().nullable(),
    review_reason: model.text().nullable(),
    /** Verify calls spent in the current window (forged copies must not drain the service's rate limit). */
    verify_window_started_at: model.dateTime().nullable(),
    verify_calls: model.number().default(0),
    /** When a Quick Checkout form was last signed for it: its customer may pay within the form's window. */
    form_signed_at: model.dateTime().nullable(),
    /** Consecutive failed attempts to capture a paid payment in Medusa, and to ask the service about a transfer. */
    settle_failures: model.number().default(0),
    check_failures: model.number().default(0),
    /** A person looked at a review item and closed it, with what they did. */
    resolved_at: model.dateTime().nullable(),
    resolved_by: model.text().nullable(),
    resolution_note: model.text().nullable(),
    cart_id: model.text().nullable(),
    order_id: model.text().nullable(),
    metadata: model.json().nullable(),
  })
  .indexes([
    { name: "IDX_odeme_payment_session_id_unique", on: ["session_id"], unique: true },
    { name: "IDX_odeme_payment_service_uuid", on: ["service_uuid"] },
    { name: "IDX_odeme_payment_due", on: ["status", "next_check_at"] },
    // Paid payments of a cart no order names yet (src/lib/reconcile.ts): few, however many payments were settled.
    {
      name: "IDX_odeme_payment_unsettled",
      on: ["updated_at"],
      where: "deleted_at IS NULL AND status = 'paid' AND order_id IS NULL AND cart_id IS NOT NULL",
    },
    // Exactly the rows the poller may claim (service.ts POLL_WHERE), in its order: finished
    // payments, however many, are not in it. A canceled transfer stays in it until it expires.
    {
      name: "IDX_odeme_payment_poll",
      on: ["created_at"],
      where:
        "deleted_at IS NULL AND service_uuid IS NOT NULL AND next_check_at IS NOT NULL AND status IN ('awaiting_transfer', 'unknown', 'paid', 'canceled')",
    },
  ])

export default OdemePayment
