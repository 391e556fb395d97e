export type HttpMethod = "GET" | "POST"

export interface EndpointDef {
  name: string
  method: HttpMethod
  /** Path template, used in errors and logs (never the real path, which can hold ids). */
  template: string
  /**
   * Idempotent: the only calls the transport lets undici repeat. A call that
   * creates something at the service is never retry-safe: a second attempt
   * could create it twice.
   */
  retrySafe: boolean
}

/** The service operations (spec §4), with stable names used in errors and logs. */
export const ODEME_ENDPOINTS = {
  listBankGroups: { name: "listBankGroups", method: "GET", template: "/api/pay/bank_transfer/bank-group/list", retrySafe: true },
  listBanks: { name: "listBanks", method: "GET", template: "/api/pay/bank_transfer/get/banks/{bank_group_id}", retrySafe: true },
  createBankTransfer: { name: "createBankTransfer", method: "POST", template: "/api/pay/bank_transfer", retrySafe: false },
  getTransferByTrackingNo: {
    name: "getTransferByTrackingNo",
    method: "GET",
    template: "/api/pay/bank_transfer/control/{payment_id}",
    retrySafe: true,
  },
  getTransferByUuid: { name: "getTransferByUuid", method: "GET", template: "/api/pay/bank_transfer/uuid/{uuid}", retrySafe: true },
  createCardPayment: { name: "createCardPayment", method: "POST", template: "/api/pay/credit_card", retrySafe: false },
  verifyNotification: { name: "verifyNotification", method: "POST", template: "/api/sale/webhook/verify", retrySafe: true },
  saleInfo: { name: "saleInfo", method: "POST", template: "/api/sale/info", retrySafe: true },
  saleInfoTransaction: { name: "saleInfoTransaction", method: "POST", template: "/api/sale/info/transaction", retrySafe: true },
} as const satisfies Record<string, EndpointDef>
