/**
 * The service's delivery always gets in (issue 41): every shape spec §6.2 does
 * not forbid, references this store never made, and floods of forged copies
 * that must not hold a genuine payment back. The plugin runs behind a trusted
 * proxy with the service's address named (192.0.2.10), so a test says who
 * delivers with X-Forwarded-For; the emulator delivers without it, from an
 * address nothing tells apart. "Not processed" is said after six seconds
 * instead of three minutes, and the verify budget keeps its one-minute window.
 * The flood suite runs last: its queued turns and budgets outlive its tests.
 */
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import { useOdemeEnvironment } from "../utils/environment"
import { intakeShapesSuite } from "./suites/intake-shapes"
import { intakeFloodSuite, SERVICE_ADDRESS } from "./suites/intake-flood"

const env = useOdemeEnvironment({
  env: { ODEME_TRUST_PROXY: "true", ODEME_SERVICE_ADDRESSES: SERVICE_ADDRESS, ODEME_UNPROCESSED_AFTER_MINUTES: "0.1" },
})

medusaIntegrationTestRunner({
  cwd: process.cwd(),
  testSuite: ({ api, getContainer }) => {
    for (const suite of [intakeShapesSuite, intakeFloodSuite]) suite({ env, api, getContainer })
  },
})
