import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { knownKeyMode } from "../../../../modules/odeme/key-mode"
import { allowedStorefrontOrigins } from "../../../../lib/options"
import { odemeModule } from "../../../../modules/odeme/resolve"
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
  const [health, attention, processing, overdue, strays] = await Promise.all([
    odeme.webhookHealth(),
    odeme.listAttention({ limit: 1, offset: 0 }),
    odeme.listAttention({ limit: 100, offset: 0, kinds: ["processing"] }),
    odeme.overdueTransferChecks(),
    odeme.strayNotifications(),
  ])
  const iso = (d: Date | string | null) => (d ? new Date(d).toISOString() : null)
  const item = (code: string) => processing.rows.filter((r) => r.code === code)
  const unprocessed = item("notifications_unprocessed")[0]
  const held = item("notifications_held_back")
  const webhookHealth = {
    last_webhook_at: iso(health.last_webhook_at),
    webhooks_24h: health.webhooks_24h,
    medusa_hook_24h: health.medusa_hook_24h,
    unconfirmed_returns: attention.counts.unconfirmed_return,
    unprocessed: unprocessed ? { count: unprocessed.count ?? 0, since: iso(unprocessed.since)! } : null,
    held_back: held.length ? { payments: held.length, since: iso(held.reduce((a, r) => (r.since < a ? r.since : a), held[0].since))! } : null,
    poller_since: iso(item("poller_not_running")[0]?.since ?? null),
    strays: { count: strays.count, last_at: iso(strays.last_at), recent: strays.recent },
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
      // Only the returns no arriving webhook explains blame the merchant panel's URL.
      ...healthWarnings({ ...webhookHealth, unconfirmed_returns: attention.codes.unconfirmed_return ?? 0, overdue_transfer_checks: overdue }, o),
      ...addressWarnings(addressesSeen, o),
      ...configurationWarnings(o, webhookHealth),
    ],
  })
}
