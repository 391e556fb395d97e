/**
 * "The API key never leaves the server" (issue 7): property-based fuzzing of
 * every public route, and the real paths a customer takes, with a distinctive
 * key; every answer and log line of the file (Medusa's boot included) is
 * checked. The suites share one Medusa boot.
 */
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import { useSecretScan } from "../utils/secret-scan"
import { fuzzSuite } from "./suites/fuzz"
import { secretsRealPathsSuite } from "./suites/secrets-real-paths"

const scan = useSecretScan()

medusaIntegrationTestRunner({
  cwd: process.cwd(),
  testSuite: ({ api, getContainer }) => {
    secretsRealPathsSuite({ env: scan.env, api, getContainer }, scan)
    // Last: its closing test checks every answer and log line of the file.
    fuzzSuite({ env: scan.env, api, getContainer }, scan)
  },
})
