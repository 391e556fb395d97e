/**
 * The Medusa app used by this repository's integration tests (and `medusa
 * plugin:develop`-style experiments). The plugin is loaded from ./src the way
 * a store loads it from the package: as plugin module + payment providers.
 * Not part of the published package.
 */
const { loadEnv, defineConfig, Modules } = require("@medusajs/framework/utils")

loadEnv(process.env.NODE_ENV || "test", process.cwd())

const port = process.env.PORT || 9000

const odemeOptions = {
  apiKey: process.env.ODEME_API_KEY || "sandbox_test_key_0001",
  apiId: process.env.ODEME_API_ID || 1001,
  baseUrl: process.env.ODEME_BASE_URL || "http://127.0.0.1:4010",
  mode: process.env.ODEME_MODE || "sandbox",
  backendUrl: process.env.ODEME_BACKEND_URL || `http://localhost:${port}`,
  storefrontUrl: process.env.ODEME_STOREFRONT_URL || "http://localhost:8000",
  minimumAmountTry: process.env.ODEME_MINIMUM_AMOUNT_TRY || undefined,
  exchangeRatesTry: { USD: "40.00", EUR: "45.00", GBP: "52.00" },
  httpTimeoutMs: Number(process.env.ODEME_HTTP_TIMEOUT_MS || 2000),
  httpRetries: Number(process.env.ODEME_HTTP_RETRIES || 1),
  refunds: process.env.ODEME_REFUNDS || "manual",
  transfer: {
    bankCacheSeconds: Number(process.env.ODEME_BANK_CACHE_SECONDS || 0),
    pollerEnabled: process.env.ODEME_POLLER_ENABLED !== "false",
  },
  // A short verify window keeps the forged-flood test short; the budget is the default.
  notifications: { verifyBudgetWindowSeconds: Number(process.env.ODEME_VERIFY_WINDOW_SECONDS || 60) },
  trustProxy: process.env.ODEME_TRUST_PROXY === "true",
  trustedStorefrontAddresses: (process.env.ODEME_TRUSTED_STOREFRONTS || "").split(",").filter(Boolean),
}
if (process.env.ODEME_RETRY_BASE_MS) {
  odemeOptions.notifications.retryBaseMs = Number(process.env.ODEME_RETRY_BASE_MS)
}
if (process.env.ODEME_FAILURES_BEFORE_ATTENTION) {
  odemeOptions.notifications.failuresBeforeAttention = Number(process.env.ODEME_FAILURES_BEFORE_ATTENTION)
}
if (process.env.ODEME_UNCONFIRMED_AFTER_MINUTES) {
  odemeOptions.notifications.unconfirmedAfterMinutes = Number(process.env.ODEME_UNCONFIRMED_AFTER_MINUTES)
}
if (process.env.ODEME_UNPROCESSED_AFTER_MINUTES) {
  odemeOptions.notifications.unprocessedAfterMinutes = Number(process.env.ODEME_UNPROCESSED_AFTER_MINUTES)
}
if (process.env.ODEME_SERVICE_ADDRESSES) {
  odemeOptions.webhook = { serviceAddresses: process.env.ODEME_SERVICE_ADDRESSES.split(",").filter(Boolean) }
}

module.exports = defineConfig({
  projectConfig: {
    databaseUrl: process.env.DATABASE_URL,
    http: {
      jwtSecret: process.env.JWT_SECRET || "test-jwt-secret",
      cookieSecret: process.env.COOKIE_SECRET || "test-cookie-secret",
      storeCors: "*",
      adminCors: "*",
      authCors: "*",
    },
  },
  admin: { disable: true },
  modules: [
    { resolve: "./src/modules/odeme", options: odemeOptions },
    {
      resolve: "@medusajs/medusa/payment",
      options: {
        providers: [{ resolve: "./src/providers/odeme", id: "odeme", options: odemeOptions }],
      },
    },
  ],
})
