/**
 * The demo's product images follow its storefront's current address for every client of the Store API: the seed
 * ran once, on the first run's port, and the README moves the storefront's port for the dtc-starter. On each start
 * `scripts/demo.js` moves them through the Admin API (scripts/lib/demo/images.js): here against this Medusa, with
 * products seeded on port 8000 and the storefront now on 8100.
 */
import path from "node:path"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { createProductsWorkflow } from "@medusajs/medusa/core-flows"
import { createAdmin } from "../../utils/admin"
import type { SuiteContext } from "../../utils/environment"
import { ROOT } from "../../utils/medusa-env"

const { moveImagesToStorefront } = require("../../../scripts/lib/demo/images")

export function demoImagesSuite({ env, api, getContainer }: SuiteContext) {
  describe("the demo's product images after its storefront moved", () => {
    it("are answered at the storefront's new address; images that are not the demo's stay", async () => {
      const admin = { email: "demo-images@odeme.test", password: "s3cret-Passw0rd!" }
      await createAdmin(api, getContainer(), admin.email, admin.password)
      const {
        result: [moved, foreign],
      } = await createProductsWorkflow(getContainer()).run({
        input: {
          products: [
            {
              title: "Çay",
              thumbnail: "http://localhost:8000/img/cay.svg",
              images: [{ url: "http://localhost:8000/img/cay.svg" }, { url: "https://cdn.example/cay.png" }],
              options: [{ title: "Boyut", values: ["1"] }],
              variants: [{ title: "1", options: { Boyut: "1" }, prices: [] }],
            },
            {
              title: "Başka",
              thumbnail: "https://cdn.example/baska.png",
              options: [{ title: "B", values: ["1"] }],
              variants: [{ title: "1", options: { B: "1" }, prices: [] }],
            },
          ],
        },
      })
      const cfg = { backendUrl: env.backendUrl, storefrontUrl: "http://localhost:8100", storefrontDir: path.join(ROOT, "demo/storefront"), admin }
      expect(await moveImagesToStorefront(cfg, () => undefined)).toBe(1)
      const { data } = await getContainer()
        .resolve(ContainerRegistrationKeys.QUERY)
        .graph({ entity: "product", fields: ["id", "thumbnail", "images.url"], filters: { id: [moved.id, foreign.id] } })
      const byId = Object.fromEntries(data.map((p: any) => [p.id, p]))
      expect(byId[moved.id].thumbnail).toBe("http://localhost:8100/img/cay.svg")
      expect(byId[moved.id].images.map((i: any) => i.url).sort()).toEqual(["http://localhost:8100/img/cay.svg", "https://cdn.example/cay.png"])
      expect(byId[foreign.id].thumbnail).toBe("https://cdn.example/baska.png")
      // Started again on the same address: nothing to move.
      expect(await moveImagesToStorefront(cfg, () => undefined)).toBe(0)
    })
  })
}
