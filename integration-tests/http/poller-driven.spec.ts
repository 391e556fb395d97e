/**
 * What the tests drive themselves, with the scheduled poller off so it races
 * nobody for due rows: the order's whole life as generated sequences, the
 * transfer poller, a burst of notifications the background queue alone must
 * get through, and balance payment links. The suites share one Medusa boot.
 */
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import { STOREFRONT } from "../utils/checkout-suite"
import { useOdemeEnvironment } from "../utils/environment"
import { balanceSuite } from "./suites/balance"
import { burstSuite } from "./suites/burst"
import { modelSuite } from "./suites/model"
import { pollerSuite } from "./suites/poller"

const env = useOdemeEnvironment({ env: { ODEME_STOREFRONT_URL: STOREFRONT, ODEME_POLLER_ENABLED: "false" } })

medusaIntegrationTestRunner({
  cwd: process.cwd(),
  testSuite: ({ api, getContainer }) => {
    for (const suite of [modelSuite, pollerSuite, burstSuite, balanceSuite]) suite({ env, api, getContainer })
  },
})
