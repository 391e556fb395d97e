import type { MedusaContainer } from "@medusajs/framework/types"
import { odemeModule } from "../../modules/odeme/resolve"
import { followOrderCancel } from "../order-rules/follow-order-cancel"
import { applyServiceAnswer } from "../payment-state/apply-service-answer"
import { isSettled, medusaState } from "../settle/read-model"

export interface ReconcileSummary {
  creations_ended: number
  checked: number
  linked: number
  failing: number
}

/** A creation call is never retried and has one timeout; this is long past it. */
const STALE_CREATION_GRACE_SECONDS = 30
/** A paid payment gets this long to be captured and ordered by its own path before the reconciler looks. */
const SETTLE_GRACE_SECONDS = 120
const PAGE = 50

/**
 * The invariant's safety net, run in every poller pass (bounded, on indexed
 * rows): what no path of the plugin caught is found here by asking Medusa.
 * - A creation claim left `creating` by a stopped process becomes `unknown`
 *   (listed; never created again).
 * - A paid payment of a cart that no order names yet: captured and ordered
 *   → named; the order canceled, or the cart paid by another payment → the
 *   table's answer for that; otherwise it
 *   counts as a failed settle, listed as `settle_failing` after a few.
 */
export async function reconcile(container: MedusaContainer): Promise<ReconcileSummary> {
  const odeme = odemeModule(container)
  const summary: ReconcileSummary = { creations_ended: 0, checked: 0, linked: 0, failing: 0 }

  const stale = await odeme.endStaleCreations(Math.ceil(odeme.odemeOptions.httpTimeoutMs / 1000) + STALE_CREATION_GRACE_SECONDS, PAGE)
  for (const sessionId of stale) {
    await applyServiceAnswer(
      container,
      sessionId,
      { kind: "creation_unknown", detail: "the creating process stopped before an answer was recorded" },
      { act: false }
    )
    summary.creations_ended++
  }

  for (const row of await odeme.unsettledPaid(SETTLE_GRACE_SECONDS, PAGE)) {
    summary.checked++
    const state = await medusaState(container, row.session_id)
    if (state.orderCanceled) {
      // As the order.canceled subscriber would have (its event was lost): a capture on the canceled order is given
      // back, and the payment names the order, so it is followed once.
      await followOrderCancel(container, row.session_id, state.orderId)
    } else if (state.orderId && (await isSettled(container, state))) {
      // Settled by another path (the storefront's cart.complete): the failures counted before no longer stand.
      await odeme.linkCart(row.session_id, state.cartId, state.orderId)
      if (row.settle_failures) await odeme.countFailure(row.session_id, "settle", false)
      summary.linked++
    } else if (state.paidByOthers) {
      await applyServiceAnswer(container, row.session_id, { kind: "already_paid", uuid: row.service_uuid }, { act: false })
    } else {
      // Its own path did not finish it (and will retry, or has given up): after a few passes a person sees it.
      await odeme.countFailure(row.session_id, "settle", true)
      summary.failing++
    }
  }
  return summary
}
