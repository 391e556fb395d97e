/**
 * Public entry point of the standalone Odeme service client
 * (`medusa-payment-odeme/client`). No Medusa imports here.
 */
export * from "./amount"
export * from "./signature"
export * from "./errors"
export { backoffCeiling, backoffDelay, isRetryableStatus, parseRetryAfter, DEFAULT_RETRY_BASE_DELAY_MS, DEFAULT_RETRY_MAX_DELAY_MS } from "./retry"
export * from "./schemas"
export * from "./checkout"
export * from "./odeme-client"
