/**
 * Browser-safe entry `medusa-payment-odeme/storefront`: what a storefront
 * (a Next.js client bundle included) needs to offer the plugin's payment
 * methods. Nothing here imports Node or Medusa server code, and nothing here
 * knows a secret: the API key never leaves the Medusa server.
 */
export * from "./provider-ids"
export * from "./responses"
export * from "./language"
export * from "./reasons"
export * from "./errors"
export * from "./failures"
export * from "./return-params"
export * from "./submit-form"
export * from "./wait-for-payment"
export * from "./waiting"
