import { model } from "@medusajs/framework/utils"
import { LEGACY_NOTIFICATION_OUTCOMES, NOTIFICATION_OUTCOMES, NOTIFICATION_SOURCES, NOTIFICATION_STATES } from "./states"

/**
 * The durable inbox: every notification (webhook, browser return) is written
 * here before it is answered, and processed from here. `dedupe_key` is a
 * hash of the notification's whole content, so identical copies are one row
 * (whose `duplicate_count` grows) and copies that differ in any field are
 * rows of their own, each verified on its own: a bad first copy can never
 * shadow the genuine one.
 */
const OdemeNotification = model
  .define("odeme_notification", {
    id: model.id({ prefix: "odntf" }).primaryKey(),
    source: model.enum([...NOTIFICATION_SOURCES]),
    dedupe_key: model.text(),
    session_id: model.text().nullable(),
    service_uuid: model.text().nullable(),
    status: model.text().nullable(),
    type: model.text().nullable(),
    payload: model.json(),
    raw_body: model.text().nullable(),
    state: model.enum([...NOTIFICATION_STATES]).default("received"),
    attempts: model.number().default(0),
    next_attempt_at: model.dateTime().nullable(),
    locked_until: model.dateTime().nullable(),
    last_error: model.text().nullable(),
    verify_result: model.json().nullable(),
    outcome: model.enum([...NOTIFICATION_OUTCOMES, ...LEGACY_NOTIFICATION_OUTCOMES]).nullable(),
    duplicate_count: model.number().default(0),
    /**
     * The delivery proved who sent it before verify: a webhook from an address the merchant named as the
     * service's, or a return with the session's proof. Verified ahead of the rest, outside the session's budget.
     */
    trusted: model.boolean().default(false),
    /** Times its verify waited for the session's budget (forged copies of the session may be using it). */
    deferrals: model.number().default(0),
    processed_at: model.dateTime().nullable(),
  })
  .indexes([
    { name: "IDX_odeme_notification_dedupe_key_unique", on: ["dedupe_key"], unique: true },
    { name: "IDX_odeme_notification_session_id", on: ["session_id"] },
    { name: "IDX_odeme_notification_due", on: ["state", "next_attempt_at"] },
    // The rows still open (service.ts dueNotificationIds), oldest first; done rows are not in it.
    // Returns that said "paid" (service.ts ATTENTION_SQL, unconfirmed returns): few, whatever the inbox holds.
    {
      name: "IDX_odeme_notification_return_success",
      on: ["created_at"],
      where: "deleted_at IS NULL AND source = 'return' AND status = 'successful'",
    },
    { name: "IDX_odeme_notification_open", on: ["created_at"], where: "deleted_at IS NULL AND state IN ('received', 'retry', 'processing')" },
  ])

export default OdemeNotification
