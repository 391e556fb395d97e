import { moduleIntegrationTestRunner } from "@medusajs/test-utils"
import path from "node:path"
import { ODEME_MODULE } from ".."
import OdemeNotification from "../models/odeme-notification"
import OdemePayment from "../models/odeme-payment"
import type OdemeModuleService from "../service"

jest.setTimeout(60_000)

const options = {
  apiKey: "sk_module_test",
  apiId: 1001,
  baseUrl: "http://127.0.0.1:4010",
  backendUrl: "http://localhost:9000",
  storefrontUrl: "http://localhost:8000",
}

moduleIntegrationTestRunner<OdemeModuleService>({
  moduleName: ODEME_MODULE,
  resolve: path.join(__dirname, ".."),
  moduleModels: [OdemePayment, OdemeNotification],
  moduleOptions: options,
  testSuite: ({ service }) => {
    describe("odeme module", () => {
      it("parses the plugin options and builds one client", () => {
        expect(service.odemeOptions.mode).toBe("sandbox")
        expect(service.odemeOptions.httpTimeoutMs).toBe(10_000)
        expect(service.client).toBeDefined()
        expect(JSON.stringify(service.client)).not.toContain("sk_module_test")
      })

      it("stores payments with their defaults and finds them by session", async () => {
        const created = await service.createOdemePayments({
          session_id: "payses_1",
          provider: "odeme-transfer",
          mode: "sandbox",
          amount: "250.00",
          currency: "TRY",
        })
        expect(created).toEqual(expect.objectContaining({ status: "pending", creation_state: "none", check_attempts: 0 }))
        const [found] = await service.listOdemePayments({ session_id: "payses_1" })
        expect(found.id).toBe(created.id)
      })

      it("allows one payment row per session and one notification per dedupe key", async () => {
        const row = { session_id: "payses_2", provider: "odeme-checkout", mode: "sandbox", amount: "1.00", currency: "TRY" }
        await service.createOdemePayments(row)
        await expect(service.createOdemePayments(row)).rejects.toThrow()

        const n = { source: "webhook" as const, dedupe_key: "n:u:successful", payload: { a: 1 } }
        await service.createOdemeNotifications(n)
        await expect(service.createOdemeNotifications(n)).rejects.toThrow()
        expect(await service.listOdemeNotifications({ dedupe_key: "n:u:successful" })).toHaveLength(1)
      })
    })
  },
})

describe("odeme module with bad options", () => {
  it("refuses to start and names every bad field", () => {
    const Service = require("../service").default
    expect(() => new Service({ logger: console }, { apiKey: "", mode: "live" })).toThrow(/apiKey.*apiId.*baseUrl/)
  })
})
