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
    const row = await this.odeme.getPayment(n.order_id)
    if (!row || !verify.is_valid || verify.official_status !== "successful") return { action: PaymentActions.NOT_SUPPORTED }
    // Through the one transition function, like every writer of a payment's state.
    await this.apply(n.order_id, { kind: "paid", uuid: n.uuid, amount: row.amount, currency: row.currency, type: "credit_card" })
    return { action: PaymentActions.SUCCESSFUL, data: { session_id: n.order_id, amount: row.amount } }
  }
}

export default ModuleProvider(Modules.PAYMENT, { services: [ReferenceCheckoutProvider] })
