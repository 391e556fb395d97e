import type { SubscriberArgs, SubscriberConfig } from "@medusajs/framework"
import { NOTIFICATION_EVENT } from "../lib/notification-event"
import { processNotification } from "../lib/process-notification"

/** Processes a stored notification in the background (a worker, when Medusa runs server + worker). */
export default async function odemeNotificationHandler({ event, container }: SubscriberArgs<{ id: string }>) {
  await processNotification(container, event.data.id)
}

export const config: SubscriberConfig = {
  event: NOTIFICATION_EVENT,
}
