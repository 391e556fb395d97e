/**
 * Quick Checkout from the session to the order: the customer's path, hostile
 * input (forged, replayed or foreign notifications, malformed requests) and
 * money under unlucky sequences. The suites share one Medusa boot.
 */
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import { STOREFRONT } from "../utils/checkout-suite"
import { useOdemeEnvironment } from "../utils/environment"
import { quickCheckoutSuite } from "./suites/checkout"
import { checkoutTamperingSuite } from "./suites/checkout-tampering"
import { moneyIntegritySuite } from "./suites/money-integrity"

const env = useOdemeEnvironment({
  env: {
    ODEME_STOREFRONT_URL: STOREFRONT,
    // Notification retries keep the production base (2 s): "retries keep their backoff" counts
    // attempts against it while the customer reloads the return URL.
    // A 2 s verify budget window instead of a minute: 100 forged copies of one payment are verified within the test, not over minutes.
    ODEME_VERIFY_WINDOW_SECONDS: "2",
  },
})

medusaIntegrationTestRunner({
  cwd: process.cwd(),
  testSuite: ({ api, getContainer }) => {
    for (const suite of [quickCheckoutSuite, checkoutTamperingSuite, moneyIntegritySuite]) suite({ env, api, getContainer })
  },
})
