/** Emitted when a stored notification should be processed (by the subscriber, on the worker). */
export const NOTIFICATION_EVENT = "odeme.notification.received"
