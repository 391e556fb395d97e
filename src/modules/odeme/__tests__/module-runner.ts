import { moduleIntegrationTestRunner } from "@medusajs/test-utils"
import path from "node:path"
import { ODEME_MODULE } from ".."
import OdemeCharge from "../models/odeme-charge"
import OdemeHealth from "../models/odeme-health"
import OdemeNotification from "../models/odeme-notification"
import OdemePayment from "../models/odeme-payment"
import OdemeRefund from "../models/odeme-refund"
import type OdemeModuleService from "../service"

/** The plugin's module alone against PostgreSQL, with the options every module spec uses. */
export function odemeModuleTests(testSuite: (args: { service: OdemeModuleService }) => void): void {
  moduleIntegrationTestRunner<OdemeModuleService>({
    moduleName: ODEME_MODULE,
    resolve: path.join(__dirname, ".."),
    moduleModels: [OdemePayment, OdemeNotification, OdemeCharge, OdemeRefund, OdemeHealth],
    moduleOptions: {
      apiKey: "sk_module_test",
      apiId: 1001,
      baseUrl: "http://127.0.0.1:4010",
      backendUrl: "http://localhost:9000",
      storefrontUrl: "http://localhost:8000",
    },
    testSuite,
  })
}
