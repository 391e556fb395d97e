import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import { useOdemeEnvironment } from "../utils/environment"
import { CHECKOUT_PROVIDER, cartWithSession, completeCart, seedStore, TRANSFER_PROVIDER } from "../utils/store"

// Live rules: HTTPS merchant URLs, a TRY minimum (converted for other currencies), no sandbox_result.
const env = useOdemeEnvironment({
  mode: "live",
  env: {
    ODEME_BACKEND_URL: "https://api.shop.example",
    ODEME_STOREFRONT_URL: "https://shop.example",
    ODEME_MINIMUM_AMOUNT_TRY: "100",
  },
})

medusaIntegrationTestRunner({
  cwd: process.cwd(),
  testSuite: ({ api, getContainer }) => {
    beforeEach(async () => {
      await env.emulator.control("POST", "/_control/reset")
    })

    const transfers = async (): Promise<any[]> => (await env.emulator.control("GET", "/_control/transfers")).result

    it("refuses an amount below the TRY minimum with a clear 400, and creates nothing", async () => {
      const store = await seedStore(getContainer(), { price: 99.99 })
      const { response } = await cartWithSession(api, store, TRANSFER_PROVIDER, {})
      expect(response.status).toBe(400)
      expect(response.data.message).toMatch(/99.99 TRY is below the minimum of 100.00 TRY/)
      expect(await transfers()).toHaveLength(0)
    })

    it("converts USD to TRY for the minimum (2.00 USD × 40 < 100 TRY)", async () => {
      const store = await seedStore(getContainer(), { currency: "usd", price: 2, providers: [TRANSFER_PROVIDER, CHECKOUT_PROVIDER] })
      const transfer = await cartWithSession(api, store, TRANSFER_PROVIDER, {})
      expect(transfer.response.status).toBe(400)
      expect(transfer.response.data.message).toMatch(/below the minimum/)
      const checkout = await cartWithSession(api, store, CHECKOUT_PROVIDER, {})
      expect(checkout.response.status).toBe(400)
    })

    it("refuses a currency the transfer API does not take (GBP)", async () => {
      const store = await seedStore(getContainer(), { currency: "gbp", price: 500 })
      const { response } = await cartWithSession(api, store, TRANSFER_PROVIDER, {})
      expect(response.status).toBe(400)
      expect(response.data.message).toMatch(/supports TRY, USD, EUR; this cart is in GBP/)
    })

    it("refuses sandbox_result in live mode; a live transfer stays pending until the money arrives", async () => {
      const store = await seedStore(getContainer(), { price: 250 })
      const { data } = await api.get("/store/odeme/banks", store.headers)
      const bankId = data.bank_groups[0].accounts[0].bank_id
      const refused = await cartWithSession(api, store, TRANSFER_PROVIDER, {
        bank_id: bankId,
        customer_name: "Deniz Aksoy",
        sandbox_result: "successful",
      })
      const res = await completeCart(api, store, refused.cart.id)
      expect(res.status).toBe(400)
      expect(res.data.message).toMatch(/sandbox_result is only accepted in sandbox mode/)
      expect(await transfers()).toHaveLength(0)

      const ok = await cartWithSession(api, store, TRANSFER_PROVIDER, { bank_id: bankId, customer_name: "Deniz Aksoy" })
      const placed = await completeCart(api, store, ok.cart.id)
      expect(placed.data.type).toBe("order")
      const [t] = await transfers()
      expect(t.sale_status).toBe(0)
      expect(t.mode).toBe("live")
    })

    it("the Quick Checkout form points the service at HTTPS return URLs", async () => {
      const store = await seedStore(getContainer(), { price: 250, providers: [CHECKOUT_PROVIDER] })
      const { session } = await cartWithSession(api, store, CHECKOUT_PROVIDER, {})
      expect(session.data.form.fields.success_url).toBe(`https://api.shop.example/odeme/return/${session.id}/success`)
      expect(session.data.mode).toBe("live")
    })
  },
})
