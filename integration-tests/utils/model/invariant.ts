/**
 * The plugin's one promise, checked against the emulator's own list of
 * payments (what the service took) and Medusa's state: every payment the
 * service marked successful is the single capture of a live order, or an
 * unresolved item in "needs attention"; no canceled order keeps a capture
 * that was not refunded; no collection captured twice unless listed; no
 * capture without a verified success; at most one order per cart.
 */
export interface WorldView {
  /** The emulator's payments of the sessions under test. */
  servicePayments: Array<{ uuid: string; order_id: string; status: string; amount: string }>
  /** The plugin's charges (one per service payment it verified). */
  charges: Array<{ session_id: string; service_uuid: string; status: string; role: string }>
  payments: Array<{ session_id: string; status: string }>
  /** Sessions with at least one unresolved "needs attention" item. */
  listed: Set<string>
  orders: Array<{
    id: string
    status: string
    captured: number
    refunded: number
    sessions: string[]
    capturedByCollection: Record<string, string[]>
  }>
  /** Medusa's captured payments of the cart, by session. */
  capturedSessions: string[]
}

export function invariantViolations(w: WorldView): string[] {
  const problems: string[] = []
  if (w.orders.length > 1) problems.push(`${w.orders.length} orders for one cart`)
  const live = w.orders.filter((o) => o.status !== "canceled")
  for (const p of w.servicePayments.filter((x) => x.status === "successful")) {
    const charge = w.charges.find((c) => c.service_uuid === p.uuid && c.session_id === p.order_id)
    const payment = w.payments.find((x) => x.session_id === p.order_id)
    const captured = w.capturedSessions.includes(p.order_id)
    const inLiveOrder = live.some((o) => Object.values(o.capturedByCollection).some((sessions) => sessions.includes(p.order_id)))
    const theCapture = charge?.role === "primary" && payment?.status === "paid" && captured && inLiveOrder
    if (!theCapture && !w.listed.has(p.order_id)) {
      problems.push(
        `service payment ${p.uuid} of ${p.order_id} (${charge ? `charge ${charge.role}` : "no charge"}, payment ${payment?.status}, captured ${captured}) is neither a live order's capture nor listed`
      )
    }
  }
  for (const o of w.orders) {
    if (o.status === "canceled" && o.captured > o.refunded) problems.push(`canceled order ${o.id} keeps ${o.captured - o.refunded} captured`)
    // One collection (the cart's, or a balance) is paid by one capture; a second one is the customer paying twice.
    for (const [collection, sessions] of Object.entries(o.capturedByCollection)) {
      if (sessions.length > 1 && !sessions.some((s) => w.listed.has(s)))
        problems.push(`collection ${collection} of order ${o.id} captured ${sessions.length} times, none listed`)
    }
  }
  for (const s of w.capturedSessions) {
    const verified = w.charges.some((c) => c.session_id === s && c.status === "successful")
    if (!verified) problems.push(`session ${s} captured in Medusa without a verified success`)
  }
  return problems
}
