/** Emitted when a stored notification should be processed (by the subscriber, on a worker). */
export const NOTIFICATION_EVENT = "odeme.notification.received"

/** Emitted by the poller job, once per pass it starts: whichever worker takes it runs the pass. */
export const POLL_EVENT = "odeme.transfers.poll"
