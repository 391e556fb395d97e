import { Modules } from "@medusajs/framework/utils"
import { ODEME_MODULE } from "../../../src/modules/odeme"
import type { SuiteContext } from "../../utils/environment"

export function pluginSuite({ env, api, getContainer }: SuiteContext) {
  describe("the plugin in a Medusa app", () => {
    describe("plugin loading", () => {
      it("registers the plugin module, its routes and the payment providers", async () => {
        const container = getContainer()
        expect(container.resolve(ODEME_MODULE)).toBeDefined()

        const health = await api.get("/odeme/health")
        expect(health.status).toBe(200)
        expect(health.data).toEqual({ plugin: "medusa-payment-odeme", status: "ok", mode: "sandbox" })

        const payment = container.resolve(Modules.PAYMENT)
        const providers = await payment.listPaymentProviders()
        expect(providers.map((p: { id: string }) => p.id)).toEqual(expect.arrayContaining(["pp_odeme-transfer_odeme"]))
      })

      it("talks to the emulator process it was configured with", async () => {
        expect(process.env.ODEME_BASE_URL).toBe(env.emulator.url)
        const health = await env.emulator.control("GET", "/_control/health")
        expect(health).toEqual(expect.objectContaining({ ok: true, service: "odeme-emulator" }))
      })
    })
  })
}
