import type { MedusaContainer } from "@medusajs/framework/types"
import { processDueNotifications } from "../lib/confirm-payment"

/**
 * Safety net of the notification inbox: processes rows whose retry is due,
 * and rows left "processing" by a crashed process once their lease ran out.
 * So a stored notification is processed even after a restart.
 */
export default async function odemeInboxRetryJob(container: MedusaContainer) {
  await processDueNotifications(container, 100)
}

export const config = {
  name: "odeme-inbox-retry",
  schedule: "* * * * *",
}
