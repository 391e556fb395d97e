/**
 * Hosts and addresses the internet cannot reach: a webhook URL the service
 * cannot deliver to (Settings), and a connection that comes through a proxy
 * or a storefront server in front of Medusa (the store routes).
 */
export function isPrivateHost(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, "").toLowerCase()
  if (h === "localhost" || h.endsWith(".localhost") || h.endsWith(".local") || h === "::1") return true
  // IPv6 unique local (fc00::/7) and link-local (fe80::/10).
  if (h.includes(":")) return /^f[cd][0-9a-f]{0,2}:/.test(h) || /^fe[89ab][0-9a-f]?:/.test(h)
  const v4 = h.match(/^(\d+)\.(\d+)\.(\d+)\.(\d+)$/)
  if (!v4) return false
  const [a, b] = [Number(v4[1]), Number(v4[2])]
  return (
    a === 10 ||
    a === 127 ||
    a === 0 ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    (a === 169 && b === 254) ||
    // Carrier-grade NAT and cloud load balancers' ranges (100.64.0.0/10).
    (a === 100 && b >= 64 && b <= 127)
  )
}
