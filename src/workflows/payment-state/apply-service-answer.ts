import type { Logger, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import type { OdemePaymentRow, StateChange } from "../../modules/odeme/service"
import { medusaFacts } from "../settle/read-model"
import { settlePaid } from "../settle/settle-payment"
import { cancelUnpaidOrder } from "../order-rules/unpaid-order"
import { decide, type Decision, type ServiceAnswer } from "../../lib/payment-state/transitions"
import { errorText } from "../../lib/error-text"
import { sandboxKeyInLiveStore } from "../../modules/odeme/key-mode"
import { odemeModule } from "../../modules/odeme/resolve"

export interface Applied {
  payment: OdemePaymentRow
  decision: Decision
}

export interface ApplyOptions {
  /**
   * Run the Medusa action (capture + complete, cancel order). Off when Medusa
   * itself asked (a provider method): it acts on the status the provider returns.
   */
  act: boolean
  /** Known by the caller (a provider method runs for a live session); otherwise asked when it matters. */
  sessionAlive?: boolean
  /**
   * The row as the caller has read it (the poller's claim, the notification
   * path's one read): decided on without reading it again. Safe: a change is
   * still written by compare-and-set on its version, a stale read that changes
   * nothing writes nothing, and one that would act on Medusa is confirmed first.
   */
  read?: OdemePaymentRow
}

const MAX_RACES = 8

/**
 * The one writer of a payment's state. Reads the payment, decides with the
 * transition table, writes with compare-and-set (deciding again if another
 * writer moved the payment in between), records the service payment in
 * `odeme_charge`, then runs Medusa's side. Every path that learns something
 * about a payment ends here: the notification path, the poller, Admin
 * "Check now", and the providers' authorize / status / retrieve.
 */
export async function applyServiceAnswer(container: MedusaContainer, sessionId: string, told: ServiceAnswer, opts: ApplyOptions): Promise<Applied> {
  const odeme = odemeModule(container)
  const logger = container.resolve<Logger>(ContainerRegistrationKeys.LOGGER)
  // Whatever path says "paid", a live store's sandbox key makes it a sandbox payment (see lib/key-mode). A question
  // the service does not answer now does not hold up a payment its verify proved: the guard is for a wrong key,
  // which it names as soon as it answers (and sessions stop starting then).
  const sandboxKey = async () =>
    sandboxKeyInLiveStore(odeme).catch((err: unknown) => {
      logger.warn(`medusa-payment-odeme: could not ask which mode the API key is of (${errorText(err)}); payment ${sessionId} is judged without it`)
      return false
    })
  const answer: ServiceAnswer =
    (told.kind === "paid" || told.kind === "mismatch") && (await sandboxKey()) ? { kind: "sandbox_paid", uuid: told.uuid, type: told.type } : told

  // The caller's read, used once; a later round reads again (or takes what the stale-read check just read).
  let known = opts.read
  for (let race = 0; race < MAX_RACES; race++) {
    const fromCaller = race === 0 && !!opts.read
    const before = known ?? (await odeme.getPayment(sessionId))
    known = undefined
    if (!before) throw new Error(`no payment of this plugin has the session id ${sessionId}`)
    // Medusa's side matters only where the table reads it: a success that would pay or settle.
    const settles = before.status === "paid" ? "uuid" in answer && answer.uuid === before.service_uuid : true
    // (A failed payment's state is not final for another service payment of the session: that one may pay it;
    // nor is an expired transfer's while its order still waits.)
    const reopens = answer.kind === "paid" && ((before.status === "failed" && answer.uuid !== before.service_uuid) || before.status === "expired")
    // Medusa's own calls (a provider's authorize) know the session is alive, not whether an expired transfer's
    // order still waits: that one is read on every path, so the same money ends the same way.
    const needsMedusa =
      answer.kind === "paid" &&
      settles &&
      (opts.sessionAlive === undefined ? reopens || !["failed", "canceled", "expired"].includes(before.status) : before.status === "expired")
    const medusa = needsMedusa ? await medusaFacts(container, sessionId) : { session_alive: opts.sessionAlive ?? true }
    const decision = decide({ status: before.status, review_code: before.review_code, primary_uuid: before.service_uuid }, answer, medusa)

    let payment = before
    const change = stateChange(before, answer, decision)
    // An item names its order: a balance session opened after the order's cancel has no other path that names it.
    if (change && "order_id" in medusa && medusa.order_id && !before.order_id) change.order_id = medusa.order_id
    if (change) {
      const written = await odeme.compareAndSetState(sessionId, before.version, change)
      if (!written) continue // another writer moved the payment: decide again on what it wrote
      payment = written
    } else if (fromCaller && decision.action !== "none") {
      // The caller's read may be older than the answer (the notification path reads before its verify
      // call): a change is guarded by compare-and-set, an action on an unchanged row by this check, so a
      // payment another writer moved meanwhile (say, to review) is not captured on the old read.
      const now = await odeme.getPayment(sessionId)
      if (now?.version !== before.version) {
        known = now ?? undefined
        continue
      }
    }

    // A "still waiting" for the payment's own uuid that changed nothing has nothing new for its charge
    // row (recorded when the uuid became the payment's): the poller asks this of every waiting transfer.
    const repeatsOwnPending = answer.kind === "pending" && !change && answer.uuid === before.service_uuid
    if (decision.charge && "uuid" in answer && answer.uuid && !repeatsOwnPending) {
      await odeme.recordCharge({
        session_id: sessionId,
        service_uuid: answer.uuid,
        status:
          answer.kind === "paid" || answer.kind === "mismatch" || answer.kind === "sandbox_paid"
            ? "successful"
            : answer.kind === "failed"
              ? "failed"
              : "pending",
        role: decision.charge === "keep" ? undefined : decision.charge,
        type: "type" in answer ? (answer.type ?? null) : null,
        amount: "amount" in answer ? answer.amount : null,
        currency: "currency" in answer ? answer.currency : null,
        detail: answer.kind === "mismatch" ? answer.reason.slice(0, 500) : null,
        verified: true,
      })
    }
    if (decision.warn) {
      logger.warn(
        `medusa-payment-odeme: payment ${sessionId} needs attention: ${decision.outcome}` +
          `${decision.review_code ? ` (${decision.review_code})` : ""}${"uuid" in answer && answer.uuid ? `, service payment ${answer.uuid}` : ""}` +
          `; state ${before.status} → ${decision.to}`
      )
    }

    return opts.act ? actOnDecision(container, { payment, decision }) : { payment, decision }
  }
  throw new Error(`payment ${sessionId} kept changing under ${MAX_RACES} concurrent writers; try again`)
}

/**
 * Medusa's side of a decision that was written: capture onto the order
 * (and what settle finds under its lock), or the cancel of an unpaid API
 * transfer's order. applyServiceAnswer's `act`, and the notification
 * workflow's own step after its apply step. What the payment ended as.
 */
export async function actOnDecision(container: MedusaContainer, applied: Applied): Promise<Applied> {
  const { payment, decision } = applied
  if (decision.action === "settle") return (await settleAndFollow(container, payment)) ?? applied
  if (decision.action === "cancel_order")
    await cancelUnpaidOrder(container, payment, odemeModule(container).odemeOptions.transfer.cancelOrderOnExpiry)
  return applied
}

/**
 * Medusa's side of a paid payment: captured onto its order (settlePaid), the
 * run of failed attempts counted for "needs attention". An order canceled, or
 * a cart another payment paid first, found under the settle lock's re-check
 * goes back to the transition table, which
 * decides what the money is now (the answer of that write; null when settled).
 * Also the balance start route's step once the service approved its transfer at once.
 */
export async function settleAndFollow(container: MedusaContainer, payment: OdemePaymentRow): Promise<Applied | null> {
  const odeme = odemeModule(container)
  let finding: Awaited<ReturnType<typeof settlePaid>>
  try {
    finding = await settlePaid(container, payment)
  } catch (err) {
    await odeme.countFailure(payment.session_id, "settle", true)
    throw err
  }
  if (payment.settle_failures) await odeme.countFailure(payment.session_id, "settle", false)
  return finding ? applyServiceAnswer(container, payment.session_id, finding, { act: false }) : null
}

/** The write a decision needs, or null when the payment stays as it is. */
function stateChange(before: OdemePaymentRow, answer: ServiceAnswer, d: Decision): StateChange | null {
  const adopt = d.adopt_uuid && "uuid" in answer && answer.uuid && answer.uuid !== before.service_uuid
  if (d.to === before.status && d.review_code === before.review_code && !adopt) return null
  const change: StateChange = {
    status: d.to,
    review_code: d.review_code,
    review_reason: d.review_code
      ? reviewReason(before, answer, d)
      : d.to === "unknown"
        ? unknownReason(before, answer)
        : answer.kind === "expired"
          ? (answer.detail ?? null)
          : null,
  }
  if (adopt) change.service_uuid = (answer as { uuid: string }).uuid
  if (d.to === "paid" && answer.kind === "paid") {
    change.charged_amount = answer.amount
    change.charged_currency = answer.currency
    change.last_result = "paid (verified)"
    if (answer.type === "credit_card") change.flow = "card"
    else if (answer.type === "bank_transfer" && before.flow !== "transfer_api") change.flow = "transfer_page"
  }
  if (d.to !== "awaiting_transfer" && d.to !== "unknown") change.next_check_at = null
  if (d.to === "awaiting_transfer") change.next_check_at = new Date(Date.now() + 60_000)
  // The service cannot cancel a transfer: a customer who saw the IBAN may still pay it until it expires,
  // and a wrong webhook URL would hide that payment, so the poller keeps asking (checkTransfer stops at expiry).
  if (d.to === "canceled" && before.flow === "transfer_api" && before.service_uuid) change.next_check_at = new Date(Date.now() + 60_000)
  // A paid API transfer stays due until the poller sees it settled, so a crash between this write and
  // Medusa's capture is caught up by the next poll (checkTransfer clears it once settled).
  if (d.to === "paid" && before.flow === "transfer_api") change.next_check_at = new Date(Date.now() + 60_000)
  return change
}

/** A payment `unknown` needs a look for one reason, its status; the reason says what the creation got. */
function unknownReason(before: OdemePaymentRow, answer: ServiceAnswer): string | null {
  if (answer.kind !== "creation_unknown") return before.review_reason ?? null
  return `Transfer creation had no readable answer (${answer.detail}): it may exist at the service; it is not created again`
}

function reviewReason(before: OdemePaymentRow, answer: ServiceAnswer, d: Decision): string {
  switch (d.review_code) {
    case "amount_mismatch":
      return answer.kind === "mismatch" ? answer.reason.slice(0, 500) : "amount or currency differs"
    case "late_success":
      if (
        answer.kind === "order_canceled" ||
        (answer.kind === "paid" && before.status !== "failed" && before.status !== "canceled" && before.status !== "expired")
      ) {
        return "The order was canceled in Medusa before this payment could be captured: refund it in the merchant panel"
      }
      return `The service confirmed a payment that was ${before.status} here: refund it in the merchant panel or accept it by hand`
    case "session_gone":
      return "The service confirmed a payment for a session Medusa no longer has (the cart changed or another payment was started)"
    case "already_paid":
      return "Another payment had already paid this cart or balance (the customer paid again, e.g. in a second tab): refund this one in the merchant panel"
    case "contradiction":
      return "The service reported failed for a payment it had confirmed: check it in the merchant panel"
    case "verify_refused_mode":
      return "A live store was told of a sandbox payment: its API key is a sandbox key. No money moved; set the live key (Settings → Odeme → Test connection)"
    default:
      return before.review_reason ?? ""
  }
}
