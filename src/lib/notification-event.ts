import { EventPriority } from "@medusajs/framework/utils"

/** Emitted when a stored notification should be processed (by the subscriber, on a worker). */
export const NOTIFICATION_EVENT = "odeme.notification.received"

/**
 * Options of every NOTIFICATION_EVENT emit. Only this plugin listens, so it
 * is `internal`: Medusa's event buses then skip their "Processing … which
 * has 1 subscribers" line, one per webhook of a burst, formatted even when
 * the log level drops it. The Redis bus would also queue an internal event
 * at its lowest priority, behind housekeeping; a payment keeps the normal one.
 */
export function notificationEmitOptions(delayMs?: number) {
  return { internal: true, priority: EventPriority.DEFAULT, ...(delayMs ? { delay: delayMs } : {}) }
}

/** Emitted by the poller job, once per pass it starts: whichever worker takes it runs the pass. */
export const POLL_EVENT = "odeme.transfers.poll"
