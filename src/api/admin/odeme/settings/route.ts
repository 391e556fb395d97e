import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { knownKeyMode } from "../../../../lib/key-mode"
import { allowedStorefrontOrigins } from "../../../../lib/options"
import { odemeModule } from "../../../../lib/odeme-module"
import { addressesSeen } from "../../../utils/client-ip"
import { addressWarnings, configurationWarnings, healthWarnings, keyWarnings, webhookUrlOf } from "./warnings"

/**
 * GET /admin/odeme/settings: the configuration as the merchant needs it
 * (mode, what to enter in the merchant panel) and warnings as codes the
 * Admin translates. It does not call the service: that is what
 * POST /admin/odeme/connection (Test connection) is for. Never the API key.
 */
export async function GET(req: MedusaRequest, res: MedusaResponse) {
  const odeme = odemeModule(req.scope)
  const o = odeme.odemeOptions
  const [health, attention, overdue] = await Promise.all([
    odeme.webhookHealth(),
    odeme.listAttention({ limit: 1, offset: 0 }),
    odeme.overdueTransferChecks(),
  ])
  const webhookHealth = {
    last_webhook_at: health.last_webhook_at ? new Date(health.last_webhook_at).toISOString() : null,
    webhooks_24h: health.webhooks_24h,
    medusa_hook_24h: health.medusa_hook_24h,
    unconfirmed_returns: attention.counts.unconfirmed_return,
  }
  res.json({
    mode: o.mode,
    sandbox: o.mode === "sandbox",
    api_id: o.apiId,
    base_url: o.baseUrl,
    backend_url: o.backendUrl,
    storefront_url: o.storefrontUrl,
    webhook_url: webhookUrlOf(o),
    return_urls: [`${o.backendUrl}/odeme/return/{session_id}/success/{proof}`, `${o.backendUrl}/odeme/return/{session_id}/cancel/{proof}`],
    storefront_origins: allowedStorefrontOrigins(o),
    refunds: o.refunds,
    checkout_currency_variant: o.checkout.currencyVariant,
    checkout_description: o.checkout.description,
    transfer: {
      expiry_hours: o.transfer.expiryHours,
      cancel_order_on_expiry: o.transfer.cancelOrderOnExpiry,
      poll_schedule: o.transfer.pollSchedule,
      poller_enabled: o.transfer.pollerEnabled,
      bank_group_id: o.transfer.bankGroupId ?? null,
    },
    notifications: { max_attempts: o.notifications.maxAttempts },
    webhook_health: webhookHealth,
    warnings: [
      ...keyWarnings(knownKeyMode(odeme.client), o),
      ...healthWarnings({ ...webhookHealth, overdue_transfer_checks: overdue }, o),
      ...addressWarnings(addressesSeen, o),
      ...configurationWarnings(o, webhookHealth),
    ],
  })
}
