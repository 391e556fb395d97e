import type { MedusaContainer } from "@medusajs/framework/types"
import { PaymentActions } from "@medusajs/framework/utils"
import { createStep, createWorkflow, StepResponse, transform, when, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { acquireLockStep, capturePaymentWorkflow, completeCartWorkflow, processPaymentWorkflow, releaseLockStep } from "@medusajs/medusa/core-flows"
import type { OdemePaymentRow } from "../../modules/odeme/service"
import { errorText } from "../../lib/error-text"
import {
  afterCapture,
  captureRecheck,
  linksCart,
  readsAfterCapture,
  settleAction,
  settleEnd,
  settleFinding,
  type AfterCapture,
  type CaptureRecheck,
  type SettleAction,
  type SettleEnd,
  type SettleFinding,
} from "../../lib/settle-rules"
import { giveBackCapture } from "../order-rules/give-back"
import { askForTheRest, forgetRestNotAsked } from "../order-rules/rest-of-order"
import { settleFacts, settleRead, type SettleRead } from "./read-model"
import { CART_LOCK, withSettleLock } from "./lock"
import { odemeModule } from "../../modules/odeme/resolve"

interface SettleInput {
  payment: OdemePaymentRow
}

interface SettleResult {
  end: SettleEnd
  /** For a canceled order: whether what was captured was given back. */
  captured: boolean
  cart_id: string | null
  /** Medusa's reason when completing the cart failed. */
  completion: string | null
}

/** Where Medusa stands for the session (read-model.ts), with "settled" read too. */
const readMedusaStep = createStep("odeme-settle-read", async ({ session_id }: { session_id: string }, { container }) => {
  return new StepResponse(await settleRead(container, session_id))
})

/** The payment names the cart (and order) it was read on, when its row names another (settle-rules: linksCart). */
const linkCartStep = createStep(
  "odeme-settle-link-cart",
  async ({ payment, read }: { payment: OdemePaymentRow; read: SettleRead }, { container }) => {
    if (linksCart(payment.cart_id, read.cart_id)) await odemeModule(container).linkCart(payment.session_id, read.cart_id, read.order_id)
    return new StepResponse(null)
  }
)

/**
 * Medusa authorizes and captures the session and completes its cart. Run, not composed: as a sub-workflow its
 * acquireLockStep of the cart is skipped, and the capture would not wait for the storefront's completion.
 */
const processPaymentStep = createStep(
  "odeme-settle-process-payment",
  async (input: { session_id: string; amount: number | string }, { container }) => {
    await processPaymentWorkflow(container).run({ input: { action: PaymentActions.SUCCESSFUL, data: input } })
    return new StepResponse(null)
  }
)

/**
 * Cart completion inside Medusa's payment workflow may lose a race with the storefront; tried here. Run, not
 * composed: it takes the cart's lock only when run on its own, and its failure is kept as the reason to retry.
 */
const completeCartStep = createStep("odeme-settle-complete-cart", async ({ cart_id }: { cart_id: string }, { container }) => {
  try {
    await completeCartWorkflow(container).run({ input: { id: cart_id } })
    return new StepResponse({ error: null as string | null })
  } catch (err) {
    return new StepResponse({ error: errorText(err) as string | null })
  }
})

/** A canceled order's money goes back (order-rules/give-back.ts), and an item about its rest goes. */
const giveBackStep = createStep("odeme-settle-give-back", async ({ payment }: { payment: OdemePaymentRow }, { container }) => {
  await forgetRestNotAsked(container, payment)
  return new StepResponse({ captured: await giveBackCapture(container, payment.session_id) })
})

/** Settled: the payment names its cart and order, and an edited order's rest is asked for (order-rules/rest-of-order.ts). */
const settledStep = createStep("odeme-settle-settled", async ({ payment, read }: { payment: OdemePaymentRow; read: SettleRead }, { container }) => {
  await odemeModule(container).linkCart(payment.session_id, read.cart_id, read.order_id)
  await askForTheRest(container, read, payment)
  return new StepResponse(null)
})

/**
 * Settles a paid payment: read Medusa → decide (lib/settle-rules.ts) → capture through Medusa's own workflows →
 * read again → the outcome. Run under the session's settle lock (settlePaid). Every branch computes what it
 * needs from values read before it, never from another branch's: a branch that did not run leaves its values
 * undefined.
 */
export const settlePaymentWorkflow = createWorkflow("odeme-settle-payment", (input: SettleInput) => {
  const session = transform({ input }, ({ input }) => ({ session_id: input.payment.session_id }))
  const read = readMedusaStep(session)
  const plan = transform({ read }, ({ read }): SettleAction => settleAction(settleFacts(read)))
  linkCartStep({ payment: input.payment, read })

  // An existing payment (captured by the payment module by itself, or kept by a session Medusa deleted): its
  // capture workflow puts it on the order. Not processPaymentWorkflow: it finds the cart through the session, and
  // with the session deleted its lookup matches any cart. Under the cart's lock, as that workflow would: the
  // storefront's cart completion adds the same capture to the order under it, and two adds could both land.
  const recheckRead = when("odeme-settle-lock-cart", { plan }, ({ plan }) => plan === "capture_existing").then(() => {
    acquireLockStep(transform({ read, input }, ({ read, input }) => cartLockOf(read, input.payment)))
    return readMedusaStep(session).config({ name: "odeme-settle-read-under-cart-lock" })
  })
  const recheck = transform({ plan, recheckRead }, ({ plan, recheckRead }): CaptureRecheck | undefined =>
    plan === "capture_existing" && recheckRead ? captureRecheck(settleFacts(recheckRead)) : undefined
  )
  when("odeme-settle-capture-existing", { recheck }, ({ recheck }) => recheck === "capture").then(() => {
    capturePaymentWorkflow.runAsStep({ input: transform({ read }, ({ read }) => ({ payment_id: read.payment_id! })) })
  })
  when("odeme-settle-unlock-cart", { plan }, ({ plan }) => plan === "capture_existing").then(() => {
    releaseLockStep(transform({ read, input }, ({ read, input }) => cartLockOf(read, input.payment)))
  })

  // No payment yet. Medusa's own amount of the session, not the plugin's two-decimal one sent to the service:
  // the order's transaction is recorded at what is passed here, and must equal what the payment module captures.
  when("odeme-settle-process", { plan }, ({ plan }) => plan === "process_payment").then(() => {
    processPaymentStep(
      transform({ read, input }, ({ read, input }) => ({ session_id: input.payment.session_id, amount: read.session_amount ?? input.payment.amount }))
    )
  })

  // Medusa's cancel does not take the settle lock: an order canceled while the capture ran is followed here.
  const acted = transform({ plan, recheck }, ({ plan, recheck }) => readsAfterCapture(plan, recheck))
  const afterRead = when("odeme-settle-acted", { acted }, ({ acted }) => acted).then(() =>
    readMedusaStep(session).config({ name: "odeme-settle-read-after-capture" })
  )
  const after = transform({ afterRead }, ({ afterRead }): AfterCapture | undefined =>
    afterRead ? afterCapture({ order_canceled: afterRead.order_canceled, cart_id: afterRead.cart_id, order_id: afterRead.order_id }) : undefined
  )
  const completion = when("odeme-settle-complete", { after }, ({ after }) => after === "complete_cart").then(() => {
    return completeCartStep(transform({ afterRead }, ({ afterRead }) => ({ cart_id: afterRead!.cart_id! })))
  })
  const lastRead = when("odeme-settle-completed", { after }, ({ after }) => after === "complete_cart").then(() =>
    readMedusaStep(session).config({ name: "odeme-settle-read-after-completion" })
  )

  const ended = transform({ plan, recheck, after, read, afterRead, lastRead, completion }, (d) => {
    const last = d.lastRead ?? d.afterRead ?? d.read
    return {
      end: settleEnd({ action: d.plan, recheck: d.recheck, after: d.after, settled_at_last: last.settled }),
      last,
      completion: d.completion?.error ?? null,
    }
  })
  const gaveBack = when("odeme-settle-canceled", { ended }, ({ ended }) => ended.end === "order_canceled").then(() =>
    giveBackStep({ payment: input.payment })
  )
  when("odeme-settle-done", { ended }, ({ ended }) => ended.end === "settled").then(() => {
    settledStep(transform({ ended, input }, ({ ended, input }) => ({ payment: input.payment, read: ended.last })))
  })
  return new WorkflowResponse(
    transform({ ended, gaveBack }, ({ ended, gaveBack }): SettleResult => ({
      end: ended.end,
      captured: gaveBack?.captured ?? false,
      cart_id: ended.last.cart_id,
      completion: ended.completion,
    }))
  )
})

/** Medusa's own lock of the cart, as its cart workflows take it; no cart, no lock (acquireLockStep takes none). */
function cartLockOf(read: SettleRead, payment: OdemePaymentRow) {
  return { key: read.cart_id ?? [], ownerId: `odeme-settle:${payment.session_id}`, ...CART_LOCK }
}

/**
 * Captures the session's payment onto its order (completing its cart first when it has one), exactly once: the
 * settle workflow under the session's settle lock (lock.ts), which serialises every caller that captures (the
 * balance start route holds it around Medusa's authorize too). Already captured and on the order → null. An
 * order canceled or a cart paid by another payment → that finding, for the transition table to decide on.
 * Throws (with Medusa's reason) while it is not there yet, so the caller retries.
 */
export async function settlePaid(container: MedusaContainer, payment: OdemePaymentRow): Promise<SettleFinding | null> {
  return withSettleLock(container, payment.session_id, async () => {
    const { result } = await settlePaymentWorkflow(container).run({ input: { payment } })
    // Gone between the decision and the lock: the next attempt sees it and sends the payment to review.
    if (result.end === "session_gone") throw new Error(`session ${payment.session_id} no longer exists in Medusa`)
    if (result.end === "not_yet") {
      throw new Error(
        `session ${payment.session_id} is not captured and ordered yet` +
          (result.completion ? `: completing cart ${result.cart_id} failed: ${result.completion}` : "")
      )
    }
    // Canceled while the money was on its way, or after it was captured: what it held was given back (once).
    return settleFinding(result.end, result.captured, payment.service_uuid)
  })
}
