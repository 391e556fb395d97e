import type { SubscriberArgs, SubscriberConfig } from "@medusajs/framework"
import { NOTIFICATION_EVENT } from "../lib/notification-event"
import { processQueued } from "../workflows/intake/processing-queue"

/**
 * Processes a stored notification in the background (a worker, when Medusa
 * runs server + worker), through the bounded per-process queue.
 */
export default async function odemeNotificationHandler({ event, container }: SubscriberArgs<{ id: string; trusted?: boolean }>) {
  await processQueued(container, event.data.id, { ahead: event.data.trusted === true })
}

export const config: SubscriberConfig = {
  event: NOTIFICATION_EVENT,
}
