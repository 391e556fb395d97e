/**
 * What the tests drive themselves, with the scheduled poller off so it races
 * nobody for due rows: the order's whole life as generated sequences, the
 * transfer poller, a burst of notifications the background queue alone must
 * get through, balance payment links, and money to more digits than two. The suites share one Medusa boot.
 */
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import { STOREFRONT } from "../utils/checkout-suite"
import { useOdemeEnvironment } from "../utils/environment"
import { balanceSuite } from "./suites/balance"
import { burstSuite } from "./suites/burst"
import { modelSuite } from "./suites/model"
import { moneyEdgesSuite } from "./suites/money-edges"
import { pollerSuite } from "./suites/poller"

// The tests run the poller's passes themselves: no transfer checks in the scheduled passes, and no scheduled
// pass at all (1 January only: a pass still retries the inbox with transfer checks off, and would race them).
const env = useOdemeEnvironment({ env: { ODEME_STOREFRONT_URL: STOREFRONT, ODEME_POLLER_ENABLED: "false", ODEME_POLL_SCHEDULE: "0 0 1 1 *" } })

medusaIntegrationTestRunner({
  cwd: process.cwd(),
  testSuite: ({ api, getContainer }) => {
    for (const suite of [modelSuite, pollerSuite, burstSuite, balanceSuite, moneyEdgesSuite]) suite({ env, api, getContainer })
  },
})
