import type { MedusaNextFunction, MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { BlockList, isIP } from "node:net"
import { MedusaError } from "@medusajs/framework/utils"
import { odemeError } from "../../lib/medusa-errors"
import type { OdemeOptions } from "../../lib/options"
import { odemeModule } from "../../modules/odeme/resolve"
import { isPrivateHost } from "../../lib/private-host"
import { isOdemeTransfer } from "../../storefront/provider-ids"
import { CHECKOUT_STOREFRONT_KEYS } from "../../providers/odeme/services/odeme-checkout"
import { TRANSFER_STOREFRONT_KEYS } from "../../providers/odeme/utils/transfer-session-data"

/**
 * Who is calling: the address that connected, unless the merchant said a
 * proxy in front of Medusa is trusted (`trustProxy`), in which case the
 * address that proxy appended to X-Forwarded-For names the client. Medusa's Express trusts one
 * proxy hop by default, so `req.ip` cannot be used: any customer could
 * choose it with a header.
 */
export function clientAddress(req: MedusaRequest, trustProxy: boolean): string {
  if (trustProxy) {
    // The right-most entry is the one the trusted proxy added; the ones before it are the client's word.
    const forwarded = req.headers["x-forwarded-for"]
    const hops = (Array.isArray(forwarded) ? forwarded.join(",") : (forwarded ?? ""))
      .split(",")
      .map((h) => h.trim())
      .filter(Boolean)
    if (hops.length) return normalizeIp(hops[hops.length - 1])
  }
  return normalizeIp(req.socket?.remoteAddress ?? "")
}

/**
 * The header a trusted storefront server uses to pass on its customer's
 * address: a storefront that creates sessions server-side (the maintained
 * starter's server actions) would otherwise give every customer its own.
 */
export const CLIENT_IP_HEADER = "x-odeme-client-ip"

/**
 * The customer's address for the transfer API (spec §4.5 `client_ip`): the
 * address that connected, or, when that is one of `trustedStorefrontAddresses`,
 * the address that storefront server reports in `x-odeme-client-ip`.
 * Never taken from the body, never made up.
 */
export function customerAddress(req: MedusaRequest, options: Pick<OdemeOptions, "trustProxy" | "trustedStorefrontAddresses">): string | null {
  const caller = clientAddress(req, options.trustProxy)
  if (caller && options.trustedStorefrontAddresses.includes(caller)) {
    const reported = req.headers[CLIENT_IP_HEADER]
    const ip = typeof reported === "string" ? normalizeIp(reported.trim()) : ""
    if (isIP(ip)) return ip
  }
  return isIP(caller) ? caller : null
}

/**
 * Guards the store's session creation for the plugin's providers: the session
 * id is Medusa's to give, so storefront data that names one (or the plugin's
 * tag) is refused; `client_ip` is set from the request, whatever the body said;
 * and only the keys a storefront may send are kept. Medusa stores the
 * storefront's data beside the provider's (`{ ...input.data, ...provider's }`)
 * and copies it onto the payment, which Admin reads: a made-up
 * `manual_refunds` would show there as money to pay back.
 */
export function odemeSessionInput(req: MedusaRequest, _res: MedusaResponse, next: MedusaNextFunction) {
  guardSessionData(req, next, true)
}

/**
 * The same guard on Medusa's admin route that opens sessions: the request's
 * address is the admin's, not the customer's, so no `client_ip` is set (a
 * transfer then cannot be created from it, as before).
 */
export function odemeAdminSessionInput(req: MedusaRequest, _res: MedusaResponse, next: MedusaNextFunction) {
  guardSessionData(req, next, false)
}

function guardSessionData(req: MedusaRequest, next: MedusaNextFunction, fromCustomer: boolean) {
  const body = req.body as { provider_id?: unknown; data?: Record<string, unknown> } | undefined
  if (!body || typeof body.provider_id !== "string" || !body.provider_id.startsWith("pp_odeme-")) return next()
  const given = body.data && typeof body.data === "object" ? body.data : {}
  if ("session_id" in given || "session_tag" in given) {
    return next(
      odemeError(MedusaError.Types.INVALID_DATA, "odeme.invalid_session_data", "Payment session data must not name a session: Medusa assigns it.")
    )
  }
  const transfer = isOdemeTransfer(body.provider_id)
  const allowed = transfer ? TRANSFER_STOREFRONT_KEYS : CHECKOUT_STOREFRONT_KEYS
  const rest = Object.fromEntries(Object.entries(given).filter(([k]) => allowed.includes(k)))
  const options = odemeModule(req.scope).odemeOptions
  const ip = fromCustomer ? customerAddress(req, options) : null
  // Only a transfer tells the service the customer's address (a Quick Checkout form is posted by the browser itself).
  if (fromCustomer && transfer) noteAddress(req, options, ip)
  body.data = ip ? { ...rest, client_ip: ip } : rest
  const validated = (req as unknown as { validatedBody?: { data?: Record<string, unknown> } }).validatedBody
  if (validated) validated.data = body.data
  next()
}

/**
 * What this process saw of the addresses customers come from, for Settings →
 * Odeme: behind a proxy that is not trusted (or a storefront server that is not
 * listed), every customer is reported to the service with the same address,
 * which its fraud checks read, and nothing else would tell the merchant.
 */
export const addressesSeen: { proxiedAt: string | null; privateAddress: string | null } = { proxiedAt: null, privateAddress: null }

/**
 * Only what a connection from a private address shows: a customer connecting from the internet, with or without
 * a header of its own, cannot make Settings advise trusting a proxy that is not there (a header is anyone's to send).
 */
function noteAddress(req: MedusaRequest, options: Pick<OdemeOptions, "trustProxy" | "trustedStorefrontAddresses">, ip: string | null): void {
  const connected = normalizeIp(req.socket?.remoteAddress ?? "")
  if (!isPrivateHost(connected) || options.trustedStorefrontAddresses.includes(connected)) return
  if (!options.trustProxy && req.headers["x-forwarded-for"]) addressesSeen.proxiedAt = new Date().toISOString()
  if (ip === connected) addressesSeen.privateAddress = ip
}

export function normalizeIp(ip: string): string {
  return ip.startsWith("::ffff:") ? ip.slice(7) : ip
}

const serviceLists = new WeakMap<object, BlockList>()

/**
 * Whether a delivery came from an address the merchant named as the
 * service's (`webhook.serviceAddresses`, addresses or CIDR ranges), read as
 * every client address is: through `trustProxy`. Such a delivery is verified
 * ahead of the rest, so a flood of forged copies from elsewhere delays
 * nothing; from an address the service shares with others nothing tells
 * them apart before verify.
 */
export function fromServiceAddress(req: MedusaRequest, options: Pick<OdemeOptions, "trustProxy" | "webhook">): boolean {
  const named = options.webhook.serviceAddresses
  if (!named.length) return false
  let list = serviceLists.get(named)
  if (!list) {
    list = serviceAddressList(named)
    serviceLists.set(named, list)
  }
  const ip = clientAddress(req, options.trustProxy)
  const family = isIP(ip)
  return family !== 0 && list.check(ip, family === 6 ? "ipv6" : "ipv4")
}

/** The named addresses as one list: `a.b.c.d`, `a.b.c.d/nn` and their IPv6 forms. */
export function serviceAddressList(named: readonly string[]): BlockList {
  const list = new BlockList()
  for (const entry of named) {
    const [address, bits] = entry.split("/")
    const type = isIP(address) === 6 ? "ipv6" : "ipv4"
    if (bits === undefined) list.addAddress(address, type)
    else list.addSubnet(address, Number(bits), type)
  }
  return list
}
