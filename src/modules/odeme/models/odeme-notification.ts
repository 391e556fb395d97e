import { model } from "@medusajs/framework/utils"

/**
 * The durable inbox: every notification (webhook, browser return, poll
 * result) is written here before it is answered, and processed from here.
 * `dedupe_key` is unique, so the same notification stored twice is one row
 * whose `duplicate_count` grows.
 */
const OdemeNotification = model
  .define("odeme_notification", {
    id: model.id({ prefix: "odntf" }).primaryKey(),
    source: model.text(),
    dedupe_key: model.text(),
    session_id: model.text().nullable(),
    service_uuid: model.text().nullable(),
    status: model.text().nullable(),
    type: model.text().nullable(),
    payload: model.json(),
    raw_body: model.text().nullable(),
    state: model.text().default("received"),
    attempts: model.number().default(0),
    next_attempt_at: model.dateTime().nullable(),
    locked_until: model.dateTime().nullable(),
    last_error: model.text().nullable(),
    verify_result: model.json().nullable(),
    outcome: model.text().nullable(),
    duplicate_count: model.number().default(0),
    processed_at: model.dateTime().nullable(),
  })
  .indexes([
    { name: "IDX_odeme_notification_dedupe_key_unique", on: ["dedupe_key"], unique: true },
    { name: "IDX_odeme_notification_session_id", on: ["session_id"] },
    { name: "IDX_odeme_notification_due", on: ["state", "next_attempt_at"] },
  ])

export default OdemeNotification
