/**
 * The service endpoints the contract run calls, written from the spec (§4),
 * not taken from the client: if the client's table drifted from the spec, the
 * run still asks the service what the spec names. Templates are what the
 * report shows (never a real id).
 */
export interface SpecEndpoint {
  method: "GET" | "POST"
  template: string
  section: string
}

export const SPEC_ENDPOINTS = {
  bankGroups: { method: "GET", template: "/api/pay/bank_transfer/bank-group/list", section: "§4.3" },
  banks: { method: "GET", template: "/api/pay/bank_transfer/get/banks/{bank_group_id}", section: "§4.4" },
  createTransfer: { method: "POST", template: "/api/pay/bank_transfer", section: "§4.5" },
  /** Live: `{payment_id}` is the tracking number `br_tracking_no` (§4.6 rule). */
  control: { method: "GET", template: "/api/pay/bank_transfer/control/{payment_id}", section: "§4.6" },
  byUuid: { method: "GET", template: "/api/pay/bank_transfer/uuid/{uuid}", section: "§4.6" },
  verify: { method: "POST", template: "/api/sale/webhook/verify", section: "§4.8" },
  /** Browser-facing, not under /api (§4.2). */
  quickCheckout: { method: "POST", template: "/checkout/quick", section: "§4.2" },
} as const satisfies Record<string, SpecEndpoint>

/** The real path of `endpoint`: each `{name}` replaced by its encoded value. */
export function specPath(endpoint: SpecEndpoint, params: Record<string, string | number> = {}): string {
  return endpoint.template.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (params[name] === undefined) throw new TypeError(`${endpoint.template} needs ${name}`)
    return encodeURIComponent(String(params[name]))
  })
}
