import type { Logger, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, MathBN } from "@medusajs/framework/utils"
import { refundPaymentsWorkflow } from "@medusajs/medusa/core-flows"
import { formatAmount } from "../../client/amount"
import { errorText } from "../../lib/error-text"
import { listsToPayBack, refundsInMedusa } from "../../lib/order-rules"
import { held, paymentOfSession, sum } from "../settle/read-model"
import { odemeModule } from "../../modules/odeme/resolve"

/**
 * Money captured onto a canceled order is given back: what the session's
 * payment has captured and not refunded is refunded in Medusa (the provider
 * records that refund as money to pay back in the merchant panel). What it
 * still holds afterwards (`refunds: "reject"`, or a refund that failed) is
 * recorded as money to pay back by hand, once per session. Call it under the
 * session's settle lock. Whether anything was captured.
 */
export async function giveBackCapture(container: MedusaContainer, sessionId: string): Promise<boolean> {
  const payment = await paymentOfSession(container, sessionId)
  if (!payment) return false
  const odeme = odemeModule(container)
  // With refunds refused it is not run at all (the provider would refuse it); otherwise what the payment still
  // holds after it is what was not given back (Medusa's payment module drops a refund its provider refused).
  if (refundsInMedusa({ holds: MathBN.gt(held(payment), 0), refunds: odeme.odemeOptions.refunds })) {
    await refundPaymentsWorkflow(container)
      .run({ input: [{ payment_id: payment.id, amount: held(payment), note: "Captured while the order was being canceled" }] })
      .catch((err) =>
        // What the payment still holds is read below and listed: the failure is only for the log.
        container
          .resolve<Logger>(ContainerRegistrationKeys.LOGGER)
          .warn(`medusa-payment-odeme: Medusa could not refund session ${sessionId}'s capture: ${errorText(err)}`)
      )
  }
  const after = (await paymentOfSession(container, sessionId)) ?? payment
  const holdsAfter = MathBN.gt(held(after), 0)
  const row = holdsAfter ? await odeme.getPayment(sessionId) : null
  if (row && listsToPayBack({ holds_after: holdsAfter, row_found: !!row })) {
    await odeme.recordRefund({
      session_id: sessionId,
      medusa_refund_id: null,
      // Medusa's amount, so Medusa's (the session's) currency: not what the service charged, which may be TRY.
      amount: formatAmount(held(after) as never),
      currency: row.currency,
    })
  }
  return MathBN.gt(sum(payment.captures), 0)
}
