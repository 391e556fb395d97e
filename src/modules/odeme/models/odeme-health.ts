import { model } from "@medusajs/framework/utils"

/**
 * What the store saw happen, kept as a count and a time rather than as rows:
 * notifications for references this store never made (the last few of them
 * in `recent`), and the poller's last pass. Settings → Odeme and "needs
 * attention" read them; one row per signal, so a flood costs nothing more.
 */
const OdemeHealth = model.define("odeme_health", {
  // One of HEALTH_SIGNALS (a check constraint holds it).
  id: model.text().primaryKey(),
  count: model.number().default(0),
  last_at: model.dateTime().nullable(),
  recent: model.json().nullable(),
})

export default OdemeHealth
