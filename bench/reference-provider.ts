import type { ProviderWebhookPayload, WebhookActionResult } from "@medusajs/framework/types"
import { ModuleProvider, Modules, PaymentActions } from "@medusajs/framework/utils"
import { webhookSchema } from "../src/lib/notification-shape"
import { OdemeCheckoutProvider } from "../src/providers/odeme/services/odeme-checkout"

/**
 * Reference for the "time to paid" benchmark only (registered by the bench as
 * `pp_odeme-checkout_ref`, never by the plugin): the plugin's checkout
 * provider plus the `getWebhookActionAndData` a provider written for Medusa's
 * core route `/hooks/payment/:provider` would have. It makes the same verify
 * call as the plugin's confirmation path and, when the service confirms,
 * records the session as paid (so the inherited authorize/capture agree) and
 * answers `captured`; Medusa's `processPaymentWorkflow` does the rest.
 * No inbox, no dedupe, no amount/currency match: it only measures the route.
 */
export class ReferenceCheckoutProvider extends OdemeCheckoutProvider {
  async getWebhookActionAndData(payload: ProviderWebhookPayload["payload"]): Promise<WebhookActionResult> {
    const parsed = webhookSchema.safeParse(payload?.data ?? {})
    if (!parsed.success) return { action: PaymentActions.NOT_SUPPORTED }
    const n = parsed.data
    const verify = await this.client_.verifyNotification({ order_id: n.order_id, uuid: n.uuid, status: n.status, hash: n.hash })
    // The service knows the payment by its short reference (or, for a session from before references, its id).
    const sessionId = await this.odeme.sessionOfOrderId(n.order_id)
    const row = sessionId ? await this.odeme.getPayment(sessionId) : null
    if (!sessionId || !row || !verify.is_valid || verify.official_status !== "successful") return { action: PaymentActions.NOT_SUPPORTED }
    // Through the one transition function, like every writer of a payment's state.
    await this.apply(sessionId, { kind: "paid", uuid: n.uuid, amount: row.amount, currency: row.currency, type: "credit_card" })
    return { action: PaymentActions.SUCCESSFUL, data: { session_id: sessionId, amount: row.amount } }
  }
}

export default ModuleProvider(Modules.PAYMENT, { services: [ReferenceCheckoutProvider] })
