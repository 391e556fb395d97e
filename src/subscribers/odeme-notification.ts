import type { SubscriberArgs, SubscriberConfig } from "@medusajs/framework"
import { confirmNotification, NOTIFICATION_EVENT } from "../lib/confirm-payment"

/** Processes a stored notification in the background (a worker, when Medusa runs server + worker). */
export default async function odemeNotificationHandler({ event, container }: SubscriberArgs<{ id: string }>) {
  await confirmNotification(container, event.data.id)
}

export const config: SubscriberConfig = {
  event: NOTIFICATION_EVENT,
}
