/**
 * Quick Checkout from the session to the order: the customer's path, hostile
 * input (forged, replayed or foreign notifications, malformed requests), money
 * under unlucky sequences, and "the API key never leaves the server" (issue 7):
 * the real paths and property-based fuzzing of every public route. The plugin
 * runs with a distinctive key, and every log line of the file (Medusa's boot
 * and every suite included) and every answer the secret suites record is
 * checked for it. The suites share one Medusa boot.
 */
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import { useSecretScan } from "../utils/secret-scan"
import { quickCheckoutSuite } from "./suites/checkout"
import { checkoutTamperingSuite } from "./suites/checkout-tampering"
import { fuzzSuite } from "./suites/fuzz"
import { moneyIntegritySuite } from "./suites/money-integrity"
import { secretsRealPathsSuite } from "./suites/secrets-real-paths"

const scan = useSecretScan({
  env: {
    // Notification retries keep the production base (2 s): "retries keep their backoff" counts
    // attempts against it while the customer reloads the return URL.
    // A 2 s verify budget window instead of a minute: 100 forged copies of one payment are verified within the test, not over minutes.
    ODEME_VERIFY_WINDOW_SECONDS: "2",
  },
})
const env = scan.env

medusaIntegrationTestRunner({
  cwd: process.cwd(),
  testSuite: ({ api, getContainer }) => {
    for (const suite of [quickCheckoutSuite, checkoutTamperingSuite, moneyIntegritySuite]) suite({ env, api, getContainer })
    secretsRealPathsSuite({ env, api, getContainer }, scan)
    // Last: its closing test checks every answer and log line of the file.
    fuzzSuite({ env, api, getContainer }, scan)
  },
})
