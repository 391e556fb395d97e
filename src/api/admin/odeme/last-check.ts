/**
 * The last status check of a payment (`last_result` on the payment row, a
 * technical text written by the poller, "Check now" and the transfer's
 * creation) as a code the Admin translates, so a merchant reads "the service
 * does not know this payment" instead of `check failed: http 404`. The raw
 * text stays available as a technical detail.
 */
export type LastCheckCode =
  | "service_pending"
  | "service_approved"
  | "service_rejected"
  | "not_found"
  | "service_http_error"
  | "unreachable"
  | "unreadable"
  | "settling_failed"
  | "paid_verified"
  | "created"
  | "other"

export interface LastCheck {
  code: LastCheckCode
  /** True when the check itself did not get the service's answer (the Admin shows it as a warning). */
  failed: boolean
  params: Record<string, string>
}

export function lastCheckOf(lastResult: string | null | undefined): LastCheck | null {
  if (!lastResult) return null
  const text = lastResult.trim()
  const sale = /^sale_status (\d+)$/.exec(text)
  if (sale) {
    const code = sale[1] === "0" ? "service_pending" : sale[1] === "1" ? "service_approved" : sale[1] === "2" ? "service_rejected" : "other"
    return { code, failed: false, params: { sale_status: sale[1] } }
  }
  const failed = /^check failed: (\w+)(?: (\d{3}))?/.exec(text)
  if (failed) {
    const [, kind, status] = failed
    if (kind === "http" && status === "404") return { code: "not_found", failed: true, params: { status } }
    if (kind === "http") return { code: "service_http_error", failed: true, params: { status: status ?? "–" } }
    if (kind === "timeout" || kind === "network") return { code: "unreachable", failed: true, params: {} }
    if (kind === "invalid_response") return { code: "unreadable", failed: true, params: {} }
    return { code: "other", failed: true, params: {} }
  }
  if (text.startsWith("settling failed")) return { code: "settling_failed", failed: true, params: {} }
  if (text === "paid (verified)") return { code: "paid_verified", failed: false, params: {} }
  if (text === "created") return { code: "created", failed: false, params: {} }
  return { code: "other", failed: false, params: {} }
}
