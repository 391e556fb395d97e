import type { KeyMode } from "../../../../lib/key-mode-probe"
import type { OdemeOptions } from "../../../../lib/options"
import { isPrivateHost } from "../../../../lib/private-host"

/**
 * What the merchant should know about the configuration, as codes the Admin
 * translates (`odeme.settings.warnings.<code>`). Pure, so the rules are
 * tested without a server.
 */
export type WarningSeverity = "error" | "warning" | "info"

export interface ConfigWarning {
  code:
    | "webhook_not_https" // live: the service delivers webhooks over HTTPS only
    | "webhook_not_public" // live: localhost or a private address, the service cannot reach it
    | "webhook_sandbox_only" // sandbox: notifications arrive at a URL the live service would not deliver to
    | "webhook_not_reached" // sandbox: none has arrived yet at a URL the live service would not deliver to
    | "api_ip_quick_checkout" // Quick Checkout is posted by the customer's browser
    | "sandbox_mode"
    | "live_keys"
    | "live_minimum_not_set"
    | "variant_a_without_rates" // currencyVariant "A" and no exchange rate: every non-TRY card payment would go to review
    | "webhooks_not_arriving" // customers come back saying "paid" and no notification confirms it
    | "webhooks_on_medusa_hook" // the merchant panel has Medusa's generic /hooks/payment URL
    | "proxy_not_trusted" // customers' sessions came through a proxy while trustProxy is off: the service is told the proxy's address
    | "customer_address_private" // a private address was taken as a customer's (live): a proxy or storefront server stands in front
    | "sandbox_key_in_live" // live mode with a key the service named a sandbox key: no payment starts
    | "transfer_checks_overdue" // transfers due for a check an hour ago: no process runs the transfer checks
    | "notifications_unprocessed" // stored notifications no process took up in time: the worker or its Redis is down
    | "notifications_held_back" // a payment's notifications wait behind copies using its verify budget (forged copies)
    | "poller_not_running" // the poller has not run for three of its periods while work waits for it
    | "stray_notifications" // notifications for references this store never made (a test delivery, a second store)
  severity: WarningSeverity
  params: Record<string, string>
}

/** The card currencies variant A converts to TRY (spec §4.2 rule 3). */
const VARIANT_A_CURRENCIES = ["USD", "EUR", "GBP"] as const

export function webhookUrlOf(options: Pick<OdemeOptions, "backendUrl">): string {
  return `${options.backendUrl}/odeme/webhook`
}

/** What the page knows of notifications reaching this store (GET /admin/odeme/settings `webhook_health`). */
export interface WebhookArrivals {
  last_webhook_at: string | null
  webhooks_24h: number
}

export function configurationWarnings(
  options: Pick<OdemeOptions, "mode" | "backendUrl" | "minimumAmountTry"> & {
    checkout?: Pick<OdemeOptions["checkout"], "currencyVariant">
    exchangeRatesTry?: OdemeOptions["exchangeRatesTry"]
  },
  arrivals?: WebhookArrivals
): ConfigWarning[] {
  const out: ConfigWarning[] = [...webhookAddressWarnings(options, arrivals)]
  const live = options.mode === "live"
  out.push({ code: "api_ip_quick_checkout", severity: "info", params: { value: "0.0.0.0" } })
  // Variant A: the service confirms a USD, EUR or GBP cart in TRY, checked against the configured rate; without
  // one, each such payment is taken and then listed for review, with no order. None at all: an error; some: which.
  if (options.checkout?.currencyVariant === "A") {
    const missing = VARIANT_A_CURRENCIES.filter((c) => !options.exchangeRatesTry?.[c])
    if (missing.length) {
      out.push({
        code: "variant_a_without_rates",
        severity: missing.length === VARIANT_A_CURRENCIES.length ? "error" : "warning",
        params: { currencies: missing.join(", ") },
      })
    }
  }
  if (live) {
    out.push({ code: "live_keys", severity: "info", params: {} })
    if (options.minimumAmountTry === undefined) out.push({ code: "live_minimum_not_set", severity: "warning", params: {} })
  } else {
    out.push({ code: "sandbox_mode", severity: "info", params: {} })
  }
  return out
}

/** What the store saw of the notifications it takes and processes (settings/route.ts reads it). */
export interface HealthFacts {
  /** Customers' "paid" returns no notification confirmed, with no webhook arriving at all (the merchant panel's URL). */
  unconfirmed_returns: number
  last_webhook_at: string | null
  medusa_hook_24h?: number
  overdue_transfer_checks?: number
  /** Stored notifications no process took up within `notifications.unprocessedAfterMinutes`. */
  unprocessed?: { count: number; since: string } | null
  /** Payments whose notifications wait that long behind copies using their verify budget. */
  held_back?: { payments: number; since: string } | null
  /** The poller's last pass (or the oldest work waiting for one), when it is three periods old. */
  poller_since?: string | null
  strays?: { count: number; last_at: string | null }
}

/**
 * Whether the service can deliver to the webhook URL. The live service
 * delivers only to a public HTTPS address (spec §6.2). A sandbox may deliver
 * to another one, and the page counts what arrived: saying it cannot under a
 * count of arrivals contradicts itself, so in sandbox what arrived decides
 * what is said, and what matters for live is said as such.
 */
export function webhookAddressWarnings(options: Pick<OdemeOptions, "mode" | "backendUrl">, arrivals?: WebhookArrivals): ConfigWarning[] {
  const url = webhookUrlOf(options)
  const notHttps = !url.startsWith("https://")
  const local = isPrivateHost(new URL(url).hostname)
  if (!notHttps && !local) return []
  if (options.mode === "live") {
    const out: ConfigWarning[] = []
    if (notHttps) out.push({ code: "webhook_not_https", severity: "error", params: { url } })
    if (local) out.push({ code: "webhook_not_public", severity: "error", params: { url } })
    return out
  }
  const arriving = !!arrivals && (arrivals.webhooks_24h > 0 || !!arrivals.last_webhook_at)
  return arriving
    ? [{ code: "webhook_sandbox_only", severity: "info", params: { url } }]
    : [{ code: "webhook_not_reached", severity: "warning", params: { url } }]
}

/**
 * Whether the service's notifications arrive and get processed. Customers came
 * back saying "paid" and no webhook arrived at all within
 * `notifications.unconfirmedAfterMinutes`: the commonest setup mistake is a
 * wrong or missing webhook URL in the merchant panel. Notifications stored but
 * not processed point at the worker instead, never at the panel.
 */
export function healthWarnings(
  health: HealthFacts,
  options: Pick<OdemeOptions, "backendUrl"> & { transfer?: Pick<OdemeOptions["transfer"], "pollSchedule"> }
): ConfigWarning[] {
  const out: ConfigWarning[] = []
  if (health.unprocessed) {
    out.push({
      code: "notifications_unprocessed",
      severity: "error",
      params: { count: String(health.unprocessed.count), since: health.unprocessed.since },
    })
  }
  if (health.poller_since) {
    out.push({
      code: "poller_not_running",
      severity: "error",
      params: { since: health.poller_since, schedule: options.transfer?.pollSchedule ?? "" },
    })
  }
  if (health.held_back) {
    out.push({
      code: "notifications_held_back",
      severity: "warning",
      params: { count: String(health.held_back.payments), since: health.held_back.since },
    })
  }
  if (health.overdue_transfer_checks) {
    out.push({ code: "transfer_checks_overdue", severity: "warning", params: { count: String(health.overdue_transfer_checks) } })
  }
  if (health.unconfirmed_returns) {
    out.push({
      code: "webhooks_not_arriving",
      severity: "error",
      params: { url: webhookUrlOf(options), count: String(health.unconfirmed_returns), last: health.last_webhook_at ?? "" },
    })
  }
  // They are still stored and confirmed, but 5 s late, and Medusa answers the service before they are stored.
  if (health.medusa_hook_24h) {
    out.push({
      code: "webhooks_on_medusa_hook",
      severity: "warning",
      params: { url: webhookUrlOf(options), count: String(health.medusa_hook_24h) },
    })
  }
  // Answered 200 and counted: a merchant who shares the account or the URL with another store should know.
  if (health.strays?.count) {
    out.push({ code: "stray_notifications", severity: "warning", params: { count: String(health.strays.count), last: health.strays.last_at ?? "" } })
  }
  return out
}

/**
 * What this process saw of customers' addresses (client-ip.ts): behind a proxy
 * that is not trusted, or a storefront server that is not listed, every
 * customer is reported to the service (spec §4.5 `client_ip`) with one address.
 */
export function addressWarnings(
  seen: { proxiedAt: string | null; privateAddress: string | null },
  options: Pick<OdemeOptions, "mode" | "trustProxy">
): ConfigWarning[] {
  const out: ConfigWarning[] = []
  if (seen.proxiedAt && !options.trustProxy) out.push({ code: "proxy_not_trusted", severity: "warning", params: { at: seen.proxiedAt } })
  // Sandbox stores are commonly tried from this machine.
  if (seen.privateAddress && options.mode === "live") {
    out.push({ code: "customer_address_private", severity: "warning", params: { ip: seen.privateAddress } })
  }
  return out
}

/**
 * What the service said of the key's mode, as far as this process has asked
 * (modules/odeme/key-mode: once, when the first payment starts; Settings does not ask).
 * A live store with a sandbox key refuses every payment, and customers are
 * only told the method is unavailable: the merchant must see why here.
 */
export function keyWarnings(known: KeyMode | null | undefined, options: Pick<OdemeOptions, "mode">): ConfigWarning[] {
  return options.mode === "live" && known === "sandbox" ? [{ code: "sandbox_key_in_live", severity: "error", params: {} }] : []
}
