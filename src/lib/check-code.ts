/**
 * What a status check ("Check now", the poller) found, as a stable code the
 * Admin translates; the check's `detail` stays technical. Kept apart from
 * check-payment.ts so the Admin bundle can import the type alone.
 */
export type CheckCode =
  | "unknown_session" // no payment of this plugin has the session
  | "no_notification" // a checkout payment the service has not notified yet
  | "unverifiable_return" // no notification, but the customer came back saying "paid": a card's return carries nothing to verify
  | "notifications_checked" // a checkout payment's notifications verified again
  | "not_found" // the service does not know the transfer (404)
  | "no_service_id" // a transfer whose creation got no answer: no uuid to ask the service with
  | "service_error" // the service could not be asked (timeout, 5xx, unreadable)
  | "settling_failed" // paid at the service, Medusa could not capture yet (retried)
  | "still_waiting" // the transfer has not arrived
  | "expired" // the transfer did not arrive in time
  | "service_status" // the service's final answer was applied
