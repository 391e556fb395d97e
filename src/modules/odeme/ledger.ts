/**
 * The payment ledger: a session's payment row (its creation claim, its details, the compare-and-set of its
 * state, what names its cart and order, what Medusa refused for it, its failure counters, the customer's
 * activity on it), the service payments recorded against it (charges) and the money to pay back by hand
 * (refunds). Each function runs its statements on the knex it is given; the module service
 * (./service.ts) gives it the one of its injected manager or transaction.
 */
import type { Knex } from "@medusajs/framework/mikro-orm/knex"
import { CHARGE, newEntityId, NOTIFICATION, OPEN_NOTIFICATION, PAYMENT, REFUND, serialize } from "./rows"
import type { ChargeInput, MedusaRefusal, OdemeChargeRow, OdemePaymentRow, OdemeRefundRow, PaymentDetails, RefundInput, StateChange } from "./types"

// ---- payments -----------------------------------------------------------------

export async function getPayment(db: Knex, sessionId: string): Promise<OdemePaymentRow | null> {
  const row = await db(PAYMENT).whereNull("deleted_at").where({ session_id: sessionId }).first()
  return (row as OdemePaymentRow | undefined) ?? null
}

export async function getPayments(db: Knex, sessionIds: string[]): Promise<OdemePaymentRow[]> {
  if (!sessionIds.length) return []
  return db(PAYMENT).whereNull("deleted_at").whereIn("session_id", sessionIds)
}

export async function listAwaitingTransfers(db: Knex, page: { limit: number; offset: number }): Promise<[OdemePaymentRow[], number]> {
  const waiting = () => db(PAYMENT).whereNull("deleted_at").where({ status: "awaiting_transfer" })
  const [rows, [{ count }]] = await Promise.all([
    // The id breaks ties between rows created in the same instant, so pages never repeat or skip one.
    waiting()
      .orderBy([
        { column: "created_at", order: "desc" },
        { column: "id", order: "desc" },
      ])
      .limit(page.limit)
      .offset(page.offset),
    waiting().count({ count: "*" }),
  ])
  return [rows as OdemePaymentRow[], Number(count)]
}

/**
 * Takes the right to create the service-side transfer for a session. Only
 * one caller ever wins while nothing was created; a refusal by the service
 * ("failed") may be retried, an unknown outcome never.
 */
export async function claimTransferCreation(db: Knex, sessionId: string, details: PaymentDetails): Promise<OdemePaymentRow | null> {
  return updatePaymentWhere(
    db,
    { session_id: sessionId, status: "pending" },
    { ...serialize(details), creation_state: "creating", creation_started_at: new Date() },
    ["creation_state", ["none", "failed"]]
  )
}

export async function endTransferCreation(
  db: Knex,
  sessionId: string,
  outcome: { creation_state: "created" | "failed" | "unknown" } & PaymentDetails
): Promise<OdemePaymentRow | null> {
  return updatePaymentWhere(db, { session_id: sessionId, creation_state: "creating" }, serialize(outcome))
}

/**
 * Ends creation claims a stopped process left open (they become `unknown`):
 * the transfer may exist at the service, so it is never created again. The
 * sessions whose claim was ended.
 */
export async function endStaleCreations(db: Knex, olderThanSeconds: number, limit: number): Promise<string[]> {
  const { rows } = await db.raw(
    `update ${PAYMENT} set creation_state = 'unknown', last_result = 'creating process stopped before an answer', updated_at = now()
       where id in (select id from ${PAYMENT} where deleted_at is null and creation_state = 'creating'
         and creation_started_at < now() - make_interval(secs => ?) limit ? for update skip locked)
       returning session_id`,
    [olderThanSeconds, limit]
  )
  return (rows as Array<{ session_id: string }>).map((r) => r.session_id)
}

export async function updatePaymentDetails(db: Knex, sessionId: string, details: PaymentDetails): Promise<OdemePaymentRow | null> {
  return updatePaymentWhere(db, { session_id: sessionId }, serialize(details))
}

/**
 * The only write of a payment's state: succeeds only if nobody moved the
 * payment since `version` was read. Called by the transition function
 * (src/workflows/payment-state/apply-service-answer.ts) and nothing else.
 */
export async function compareAndSetState(db: Knex, sessionId: string, version: number, change: StateChange): Promise<OdemePaymentRow | null> {
  // What a person resolved was this state: a new state (or review reason) is a new item for them.
  const resolvedAt = db.raw("case when status::text is distinct from ? or review_code::text is distinct from ? then null else resolved_at end", [
    change.status,
    change.review_code,
  ])
  return updatePaymentWhere(db, { session_id: sessionId, version }, { ...serialize(change), version: version + 1, resolved_at: resolvedAt })
}

/** One conditional update of a live payment row, returning it when the condition held. */
async function updatePaymentWhere(
  db: Knex,
  where: Record<string, unknown>,
  patch: Record<string, unknown>,
  whereIn?: [string, string[]]
): Promise<OdemePaymentRow | null> {
  let q = db(PAYMENT).whereNull("deleted_at").where(where)
  if (whereIn) q = q.whereIn(whereIn[0], whereIn[1])
  // A new next check ends the poller's lease (claims.ts claimDueTransfers), or the row would wait for the lease too.
  const lease = "next_check_at" in patch ? { claimed_until: null } : {}
  const rows = await q.update({ ...patch, ...lease, updated_at: new Date() }).returning("*")
  return (rows[0] as OdemePaymentRow | undefined) ?? null
}

// ---- the payment's cart and order ------------------------------------------------

/**
 * Paid payments of a cart that no order names yet, settled at least a
 * moment ago: the reconciler asks Medusa about them (a page, oldest first).
 */
export async function unsettledPaid(db: Knex, olderThanSeconds: number, limit: number): Promise<OdemePaymentRow[]> {
  return db(PAYMENT)
    .whereNull("deleted_at")
    .where({ status: "paid" })
    .whereNotNull("cart_id")
    .whereNull("order_id")
    .where("updated_at", "<", db.raw("now() - make_interval(secs => ?)", [olderThanSeconds]))
    .orderBy("updated_at")
    .limit(limit)
}

/**
 * Names the cart on the payment, and the cart's order on every payment of
 * that cart that does not name one; a balance's payment (no cart) names its
 * order. Up to two updates, run in the one transaction the service's method
 * opens: a payment never names the cart while the cart's order is missing
 * from its siblings.
 */
export async function linkCart(db: Knex, sessionId: string, cartId: string | null, orderId: string | null): Promise<void> {
  if (cartId) await db(PAYMENT).whereNull("deleted_at").where({ session_id: sessionId }).update({ cart_id: cartId, updated_at: new Date() })
  if (!cartId && orderId) {
    await db(PAYMENT)
      .whereNull("deleted_at")
      .where({ session_id: sessionId })
      .whereNull("order_id")
      .update({ order_id: orderId, updated_at: new Date() })
  }
  if (cartId && orderId) {
    await db(PAYMENT).whereNull("deleted_at").where({ cart_id: cartId }).whereNull("order_id").update({ order_id: orderId, updated_at: new Date() })
  }
}

/**
 * Names a placed order (and its cart) on its payments that are not paid: a paid one is named by settle once
 * its capture is on the order, and until then the reconciler looks for it (`unsettledPaid`).
 */
export async function nameOrder(db: Knex, sessionIds: string[], cartId: string | null, orderId: string): Promise<void> {
  if (!sessionIds.length) return
  await db(PAYMENT)
    .whereNull("deleted_at")
    .whereIn("session_id", sessionIds)
    .whereNot("status", "paid")
    .whereNull("order_id")
    .update({ order_id: orderId, ...(cartId ? { cart_id: cartId } : {}), updated_at: new Date() })
}

/**
 * What Medusa would not do for a payment, kept until it is done (null clears it): an order its unpaid transfer
 * could not cancel, the rest of an edited order that could not be asked for. Each is an item in "needs
 * attention" (attention-sql.ts's `order_not_canceled`, `rest_not_asked`), never only a log line.
 */
export async function noteMedusaRefusal(
  db: Knex,
  sessionId: string,
  what: MedusaRefusal,
  detail: { order_id: string | null; reason: string } | null
): Promise<void> {
  const row = db(PAYMENT).whereNull("deleted_at").where({ session_id: sessionId })
  if (!detail) {
    await row.whereRaw("jsonb_exists(metadata, ?)", [what]).update({ metadata: db.raw("metadata - ?::text", [what]), updated_at: new Date() })
    return
  }
  const reason = detail.reason.slice(0, 500)
  // `at` (the database's clock, as resolved_at) is when it was first seen: the same refusal again keeps it, so a
  // person's "resolved" still holds; another reason is new and listed again.
  await row.update({
    metadata: db.raw(
      `coalesce(metadata, '{}'::jsonb) || jsonb_build_object(?::text, ?::jsonb || jsonb_build_object('at',
           case when metadata->(?::text)->>'reason' = ?::text then metadata->(?::text)->'at' else to_jsonb(now()) end))`,
      [what, JSON.stringify({ order_id: detail.order_id, reason }), what, reason, what]
    ),
    updated_at: new Date(),
  })
}

/** An order was canceled after all (by hand, say): none of its payments is listed as its order not canceled any more. */
export async function forgetOrderNotCanceled(db: Knex, orderId: string): Promise<void> {
  await db(PAYMENT)
    .whereNull("deleted_at")
    .whereRaw("metadata->'order_not_canceled'->>'order_id' = ?", [orderId])
    .update({ metadata: db.raw("metadata - 'order_not_canceled'"), updated_at: new Date() })
}

/** Counts a failed settle in Medusa or check at the service in a row (false: the run of failures ended). */
export async function countFailure(db: Knex, sessionId: string, what: "settle" | "check", failed: boolean): Promise<void> {
  const column = what === "settle" ? "settle_failures" : "check_failures"
  await db(PAYMENT)
    .whereNull("deleted_at")
    .where({ session_id: sessionId })
    .update({ [column]: failed ? db.raw("?? + 1", [column]) : 0, updated_at: new Date() })
}

// ---- the customer's activity -------------------------------------------------------

/**
 * Whether a session's customer may be paying it now: its row changed (initiated, an answer recorded) since
 * `since.changed`; a form was signed, or a return or a webhook stored (not refused by verify) since
 * `since.noted`; or a webhook of it still waits to be processed (its verify retrying may well be the money).
 */
export async function maybePaying(db: Knex, sessionId: string, since: { changed: Date; noted: Date }): Promise<boolean> {
  const { rows } = await db.raw(
    `select exists (select 1 from ${PAYMENT} where session_id = ? and deleted_at is null and (updated_at > ? or form_signed_at > ?))
         or exists (select 1 from ${NOTIFICATION} where session_id = ? and deleted_at is null
           and ((created_at > ? and outcome is distinct from 'rejected') or (source = 'webhook' and ${OPEN_NOTIFICATION}))) as busy`,
    [sessionId, since.changed, since.noted, sessionId, since.noted]
  )
  return rows[0].busy === true
}

/**
 * A Quick Checkout form was signed for the session: its customer may pay within the form's window from now.
 * A column of its own, not `updated_at`: the payment itself did not change.
 */
export async function noteFormSigned(db: Knex, sessionId: string): Promise<void> {
  await db(PAYMENT).whereNull("deleted_at").where({ session_id: sessionId }).update({ form_signed_at: db.fn.now() })
}

// ---- charges ---------------------------------------------------------------------

/** Records a service payment of a session (one row per uuid); a later answer updates it. */
export async function recordCharge(db: Knex, charge: ChargeInput): Promise<OdemeChargeRow> {
  const { rows } = await db.raw(
    `insert into ${CHARGE} (id, session_id, service_uuid, status, role, type, amount, currency, detail, verified_at)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?, ${charge.verified ? "now()" : "null"})
       on conflict (session_id, service_uuid) where deleted_at is null
       do update set
         -- Money reported once stays reported: a later pending or failed answer never hides a success.
         status = case when ${CHARGE}.status = 'successful' then ${CHARGE}.status else excluded.status end,
         role = coalesce(?, ${CHARGE}.role),
         type = coalesce(excluded.type, ${CHARGE}.type),
         amount = coalesce(excluded.amount, ${CHARGE}.amount),
         currency = coalesce(excluded.currency, ${CHARGE}.currency),
         detail = coalesce(excluded.detail, ${CHARGE}.detail),
         verified_at = coalesce(${CHARGE}.verified_at, excluded.verified_at),
         updated_at = now()
       returning *`,
    [
      newEntityId("odchg"),
      charge.session_id,
      charge.service_uuid,
      charge.status,
      charge.role ?? "none",
      charge.type ?? null,
      charge.amount ?? null,
      charge.currency ?? null,
      charge.detail ?? null,
      // "none" only for a new row: it never overwrites a role already given.
      charge.role && charge.role !== "none" ? charge.role : null,
    ]
  )
  return rows[0]
}

export async function acknowledgeCharge(db: Knex, id: string, actor: string | null): Promise<OdemeChargeRow | null> {
  const rows = await db(CHARGE)
    .whereNull("deleted_at")
    .where({ id })
    .whereIn("role", ["duplicate", "late", "rejected"])
    .update({ acknowledged_at: db.raw("coalesce(acknowledged_at, now())"), acknowledged_by: actor, updated_at: new Date() })
    .returning("*")
  return (rows[0] as OdemeChargeRow | undefined) ?? null
}

// ---- refunds to make by hand --------------------------------------------------------

/**
 * Money to pay back in the merchant panel (the service has no refund call): a to-do until a person says it
 * was paid back. A refund Medusa recorded is recorded once per Medusa refund (Medusa's retries add nothing);
 * one Medusa could not make (`medusa_refund_id` null: refunds refused, or a refund that failed) once per
 * session, however often the cancel it follows is followed.
 */
export async function recordRefund(db: Knex, refund: RefundInput): Promise<void> {
  await db.raw(
    `insert into ${REFUND} (id, session_id, medusa_refund_id, amount, currency)
       select ?, ?, ?::text, ?, ?
       where ?::text is not null
          or not exists (select 1 from ${REFUND} where session_id = ? and medusa_refund_id is null and deleted_at is null)
       on conflict (medusa_refund_id) where medusa_refund_id is not null and deleted_at is null do nothing`,
    [newEntityId("odref"), refund.session_id, refund.medusa_refund_id, refund.amount, refund.currency, refund.medusa_refund_id, refund.session_id]
  )
}

export async function acknowledgeRefund(db: Knex, id: string, actor: string | null): Promise<OdemeRefundRow | null> {
  const rows = await db(REFUND)
    .whereNull("deleted_at")
    .where({ id })
    .update({ acknowledged_at: db.raw("coalesce(acknowledged_at, now())"), acknowledged_by: actor, updated_at: new Date() })
    .returning("*")
  return (rows[0] as OdemeRefundRow | undefined) ?? null
}
