import type { Logger, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules, PaymentActions } from "@medusajs/framework/utils"
import { completeCartWorkflow, processPaymentWorkflow } from "@medusajs/medusa/core-flows"
import type { Knex } from "@medusajs/framework/mikro-orm/knex"
import { OdemeApiError } from "../client"
import { ODEME_MODULE } from "../modules/odeme"
import type OdemeModuleService from "../modules/odeme/service"
import { judgeNotification, type Verdict } from "./judge"
import { NotificationInbox, type NotificationRow } from "./notification-inbox"
import { PaymentStore, type OdemePaymentRow } from "./payment-store"

import { NOTIFICATION_EVENT } from "./notification-event"

export { NOTIFICATION_EVENT }

export interface ConfirmResult {
  notification_id: string
  outcome: string
  /** Processing will be tried again later. */
  retry?: boolean
}

function deps(container: MedusaContainer) {
  const db = container.resolve<Knex>(ContainerRegistrationKeys.PG_CONNECTION)
  return {
    db,
    logger: container.resolve<Logger>(ContainerRegistrationKeys.LOGGER),
    odeme: container.resolve<OdemeModuleService>(ODEME_MODULE),
    inbox: new NotificationInbox(db),
    payments: new PaymentStore(db),
  }
}

/**
 * THE confirmation path, used by the webhook subscriber, the return route,
 * the poller and the admin "check now" action. A notification is only ever
 * believed after the service's verify endpoint confirmed it (spec §6.2) and
 * it matches the session; Medusa's state is then moved with Medusa's own
 * workflows under a per-session lock, so however many copies arrive, in
 * whatever order, there is one order and one capture.
 */
export async function confirmNotification(container: MedusaContainer, notificationId: string): Promise<ConfirmResult> {
  const { logger, odeme, inbox, payments } = deps(container)
  const row = await inbox.claim(notificationId, odeme.odemeOptions.notifications.leaseSeconds)
  if (!row) {
    const current = await inbox.get(notificationId)
    return { notification_id: notificationId, outcome: current?.outcome ?? current?.state ?? "unknown" }
  }
  const maxAttempts = odeme.odemeOptions.notifications.maxAttempts
  const facts = factsOf(row)
  try {
    const payment = row.session_id ? await payments.get(row.session_id) : null
    if (!payment || !facts) {
      await inbox.finish(row.id, { outcome: "unknown_session" })
      logger.warn(`medusa-payment-odeme: notification ${row.id} names no known payment session; ignored`)
      return { notification_id: row.id, outcome: "unknown_session" }
    }

    let verify
    try {
      verify = await odeme.client.verifyNotification(facts)
    } catch (err) {
      const msg = err instanceof OdemeApiError ? err.message : String(err)
      const { dead, delayMs } = await inbox.retryLater(row, `verify failed: ${msg}`, maxAttempts)
      logger.warn(`medusa-payment-odeme: could not verify notification ${row.id} (${msg}); ${dead ? "marked dead" : `retry in ${Math.round(delayMs / 1000)} s`}`)
      if (!dead) await scheduleRetry(container, row.id, delayMs)
      return { notification_id: row.id, outcome: dead ? "dead" : "verify_failed", retry: !dead }
    }

    const verdict = judgeNotification(
      { ...facts, amount: row.payload.amount as string | number | undefined, currency: row.payload.currency as string | undefined },
      verify,
      { session_id: payment.session_id, amount: payment.amount, currency: payment.currency },
      odeme.odemeOptions
    )
    if (verdict.outcome === "pending") {
      const { dead, delayMs } = await inbox.retryLater(row, "the service does not report a final status yet", maxAttempts, {
        verify_result: verify,
        outcome: "pending",
      })
      if (!dead) await scheduleRetry(container, row.id, delayMs)
      return { notification_id: row.id, outcome: "pending", retry: !dead }
    }
    await applyVerdict(container, payment, verdict, row)
    await inbox.finish(row.id, { outcome: verdict.outcome, verify_result: verify })
    logger.info(`medusa-payment-odeme: notification ${row.id} (${row.source}) for ${payment.session_id} processed: ${verdict.outcome}`)
    return { notification_id: row.id, outcome: verdict.outcome }
  } catch (err) {
    // Database or workflow trouble: keep the notification and try again.
    const msg = err instanceof Error ? err.message : String(err)
    const { dead, delayMs } = await inbox.retryLater(row, msg, maxAttempts)
    logger.error(`medusa-payment-odeme: processing notification ${row.id} failed: ${msg}`)
    if (!dead) await scheduleRetry(container, row.id, delayMs)
    return { notification_id: row.id, outcome: dead ? "dead" : "error", retry: !dead }
  }
}

function factsOf(row: NotificationRow) {
  const p = row.payload
  if (!row.session_id || !row.service_uuid || typeof p.hash !== "string" || !row.status) return null
  return { order_id: row.session_id, uuid: row.service_uuid, status: row.status, hash: p.hash }
}

/** Moves the plugin's record and Medusa's state to what the verified notification says. */
export async function applyVerdict(
  container: MedusaContainer,
  payment: OdemePaymentRow,
  verdict: Verdict,
  source?: Pick<NotificationRow, "id" | "type" | "service_uuid" | "payload">
): Promise<void> {
  const { logger, payments } = deps(container)
  const flow = source?.type === "credit_card" ? "card" : source?.type === "bank_transfer" && payment.flow !== "transfer_api" ? "transfer_page" : payment.flow
  switch (verdict.outcome) {
    case "invalid":
    case "mismatch":
      logger.warn(
        `medusa-payment-odeme SECURITY: notification ${source?.id ?? "?"} for session ${payment.session_id} was not accepted: ${verdict.reason}`
      )
      if (verdict.outcome === "mismatch") {
        await payments.transition(payment.session_id, ["pending", "awaiting_transfer"], {
          status: "review",
          review_reason: verdict.reason.slice(0, 500),
        })
      }
      return
    case "failed":
      await payments.transition(payment.session_id, ["pending", "awaiting_transfer"], {
        status: "failed",
        flow,
        service_uuid: payment.service_uuid ?? source?.service_uuid ?? null,
        next_check_at: null,
        last_result: "failed (verified)",
      })
      return
    case "paid": {
      const charged = {
        charged_amount: source?.payload?.amount != null ? String(source.payload.amount) : payment.charged_amount,
        charged_currency: (source?.payload?.currency as string | undefined) ?? payment.charged_currency,
      }
      const moved = await payments.transition(payment.session_id, ["pending", "awaiting_transfer", "failed"], {
        status: "paid",
        flow,
        service_uuid: payment.service_uuid ?? source?.service_uuid ?? null,
        next_check_at: null,
        last_result: "paid (verified)",
        ...charged,
      })
      const current = moved ?? (await payments.get(payment.session_id))
      if (current?.status === "canceled" || current?.status === "expired") {
        await payments.transition(payment.session_id, ["canceled", "expired"], {
          status: "review",
          review_reason: `The service confirmed a payment that was ${current.status} here: refund or accept it by hand`,
        })
        logger.warn(`medusa-payment-odeme: a ${current.status} payment ${payment.session_id} was confirmed by the service; flagged for review`)
        return
      }
      if (current?.status === "paid") await settlePaid(container, current)
      return
    }
    default:
      return
  }
}

/**
 * Captures the session's payment and completes its cart, exactly once. The
 * per-session lock (Medusa's locking module: use a Redis or PostgreSQL
 * locking provider when several servers run) serialises the plugin's own
 * callers; Medusa's cart lock serialises them with the storefront's
 * `cart.complete`. Already captured and ordered → nothing to do.
 */
export async function settlePaid(container: MedusaContainer, payment: OdemePaymentRow): Promise<void> {
  const locking = container.resolve(Modules.LOCKING)
  const settled = (s: Awaited<ReturnType<typeof medusaState>>) => s.captured && (!!s.orderId || !s.cartId)
  await locking.execute(
    `odeme:session:${payment.session_id}`,
    async () => {
      let state = await medusaState(container, payment.session_id)
      if (!state.session || settled(state)) return
      await processPaymentWorkflow(container).run({
        input: { action: PaymentActions.SUCCESSFUL, data: { session_id: payment.session_id, amount: payment.amount } },
      })
      state = await medusaState(container, payment.session_id)
      if (state.cartId && !state.orderId) {
        // Cart completion inside processPaymentWorkflow may lose a race with the storefront; try ourselves.
        await completeCartWorkflow(container)
          .run({ input: { id: state.cartId } })
          .catch(() => undefined)
        state = await medusaState(container, payment.session_id)
      }
      // Not there yet: the notification stays due and is processed again.
      if (!settled(state)) throw new Error(`session ${payment.session_id} is not captured and ordered yet`)
    },
    { timeout: 30 }
  )
}

/** Where Medusa stands for a payment session: payment captured? cart? order? */
export async function medusaState(container: MedusaContainer, sessionId: string) {
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data: sessions } = await query.graph({
    entity: "payment_session",
    fields: ["id", "status", "payment_collection_id", "payment.id", "payment.captured_at"],
    filters: { id: sessionId },
  })
  const session = sessions[0] as
    | { id: string; status: string; payment_collection_id: string; payment?: { id: string; captured_at: Date | null } | null }
    | undefined
  if (!session) return { session: null, captured: false, cartId: null, orderId: null }
  const { data: links } = await query.graph({
    entity: "cart_payment_collection",
    fields: ["cart_id"],
    filters: { payment_collection_id: session.payment_collection_id },
  })
  const cartId = (links[0] as { cart_id?: string } | undefined)?.cart_id ?? null
  let orderId: string | null = null
  if (cartId) {
    const { data: orders } = await query.graph({ entity: "order_cart", fields: ["order_id"], filters: { cart_id: cartId } })
    orderId = (orders[0] as { order_id?: string } | undefined)?.order_id ?? null
  }
  return { session, captured: !!session.payment?.captured_at, cartId, orderId }
}

/** Asks for the notification to be processed again after `delayMs` (the inbox job is the safety net). */
export async function scheduleRetry(container: MedusaContainer, id: string, delayMs: number): Promise<void> {
  try {
    const bus = container.resolve(Modules.EVENT_BUS)
    await bus.emit({ name: NOTIFICATION_EVENT, data: { id } }, { delay: delayMs })
  } catch {
    // The stored row is due anyway; the retry job picks it up.
  }
}

/** Processes inbox rows that are due (retries, and rows left by a crash). Used by the job. */
export async function processDueNotifications(container: MedusaContainer, limit = 50): Promise<ConfirmResult[]> {
  const { inbox } = deps(container)
  const due = await inbox.due(limit)
  const results: ConfirmResult[] = []
  for (const row of due) results.push(await confirmNotification(container, row.id))
  return results
}
