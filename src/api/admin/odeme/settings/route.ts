import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { allowedStorefrontOrigins } from "../../../../lib/options"
import { odemeModule } from "../../../utils/odeme-module"
import { redact } from "../presenters"

/**
 * GET /admin/odeme/settings: what to enter in the merchant panel and whether
 * the service answers. Never the API key.
 */
export async function GET(req: MedusaRequest, res: MedusaResponse) {
  const odeme = odemeModule(req.scope)
  const o = odeme.odemeOptions
  const webhookUrl = `${o.backendUrl}/odeme/webhook`

  let reachable = false
  let reachError: string | null = null
  try {
    await odeme.client.listBankGroups()
    reachable = true
  } catch (err) {
    reachError = redact(err instanceof Error ? err.message : String(err), o.apiKey).slice(0, 500)
  }

  const warnings: string[] = [
    "api_ip must be 0.0.0.0 for Quick Checkout (browser requests): set it so in the merchant panel (profile → API settings).",
  ]
  if (!o.backendUrl.startsWith("https://")) {
    warnings.push(`the webhook URL must be HTTPS and answer 200: ${webhookUrl} is not HTTPS, so the service cannot deliver notifications to it in production.`)
  }
  if (o.mode === "live") {
    if (o.minimumAmountTry === undefined) {
      warnings.push("Live mode: minimumAmountTry is not set; the service's own minimum decides and small carts may be refused at payment time.")
    }
    warnings.push("Live mode: payments are real and sandbox_result is refused; make sure the API key and api_id are the live ones.")
  } else {
    warnings.push('Sandbox mode: no money moves. To go live set mode: "live" with the live API key and api_id and HTTPS URLs.')
  }
  if (!reachable) warnings.push(`The payment service at ${o.baseUrl} did not answer the bank group list: ${reachError}`)

  res.json({
    mode: o.mode,
    sandbox: o.mode === "sandbox",
    api_id: o.apiId,
    base_url: o.baseUrl,
    base_url_reachable: reachable,
    base_url_error: reachError,
    backend_url: o.backendUrl,
    storefront_url: o.storefrontUrl,
    webhook_url: webhookUrl,
    return_urls: [`${o.backendUrl}/odeme/return/{session_id}/success`, `${o.backendUrl}/odeme/return/{session_id}/cancel`],
    storefront_origins: allowedStorefrontOrigins(o),
    refunds: o.refunds,
    checkout_currency_variant: o.checkout.currencyVariant,
    transfer: {
      expiry_hours: o.transfer.expiryHours,
      cancel_order_on_expiry: o.transfer.cancelOrderOnExpiry,
      poll_schedule: o.transfer.pollSchedule,
      bank_group_id: o.transfer.bankGroupId ?? null,
    },
    notifications: { max_attempts: o.notifications.maxAttempts },
    warnings,
  })
}
