/**
 * The plugin in a Medusa app with the settings a merchant starts from: its
 * registration, Admin (settings, needs attention, transfers, order widget),
 * bank transfers through the API, and a flood from the service's address.
 * The suites share one Medusa boot; the flood runs last, so its junk and
 * rate counters are the last thing this app sees.
 */
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import { useOdemeEnvironment } from "../utils/environment"
import { adminSuite } from "./suites/admin"
import { adminSettingsSuite } from "./suites/admin-settings"
import { demoImagesSuite } from "./suites/demo-images"
import { pluginSuite } from "./suites/plugin"
import { transferSuite } from "./suites/transfer"
import { webhookFloodSuite } from "./suites/webhook-flood"

const env = useOdemeEnvironment()

medusaIntegrationTestRunner({
  cwd: process.cwd(),
  testSuite: ({ api, getContainer }) => {
    for (const suite of [pluginSuite, adminSettingsSuite, adminSuite, transferSuite, demoImagesSuite, webhookFloodSuite])
      suite({ env, api, getContainer })
  },
})
