import { returnProof } from "../../../src/lib/session-tag"
import { createAdmin } from "../../utils/admin"
import { chooseTransfer, follow, openCheckout, payByCard, waitFor } from "../../utils/checkout-driver"
import { checkoutSuite, STOREFRONT } from "../../utils/checkout-suite"
import type { SuiteContext } from "../../utils/environment"
import { ordersOfCart } from "../../utils/inspect"
import { CHECKOUT_PROVIDER, cartWithSession, completeCart, type SeededStore } from "../../utils/store"

export function quickCheckoutSuite({ env, api, getContainer }: SuiteContext) {
  describe("Quick Checkout", () => {
    let store: SeededStore
    const suite = checkoutSuite({ api, getContainer, env })
    const { notifications, paymentRow, settled, captureCount, postWebhook, freshForm, startCheckout, paidOrder, approvedWithPausedWebhook } = suite
    beforeEach(async () => {
      store = await suite.reset()
    })

    describe("session data", () => {
      it("holds the signed form and reference, never the API key", async () => {
        const { session } = await startCheckout()
        // What the shopper reads on the service's page and may quote: the short reference, never the session id.
        const short = session.data.shopper_reference
        expect(short).toMatch(/^OD-[0-9A-HJKMNP-TV-Z]{6}$/)
        expect((await paymentRow(session.id)).reference).toBe(short)
        expect(session.data).toEqual(
          expect.objectContaining({
            provider: "odeme-checkout",
            reference: session.id,
            shopper_reference: short,
            amount: "250.00",
            currency: "TRY",
            // What the shopper reads on the service's page: no internal id.
            description: `Sipariş ödemesi ${short}`,
            form: expect.objectContaining({
              action: `${env.emulator.url}/checkout/quick`,
              method: "POST",
              fields: expect.objectContaining({
                order_id: short,
                amount: "250.00",
                currency: "TRY",
                success_url: `${env.backendUrl}/odeme/return/${session.id}/success/${returnProof(env.emulator.apiKey, session.id)}`,
                cancel_url: `${env.backendUrl}/odeme/return/${session.id}/cancel/${returnProof(env.emulator.apiKey, session.id)}`,
                signature: expect.stringMatching(/^[0-9a-f]{64}$/),
              }),
            }),
          })
        )
        expect(JSON.stringify(session)).not.toContain(env.emulator.apiKey)
        // The service's page names the payment by it, in the order line and the description, and shows no internal id.
        const page = await (await fetch(await openCheckout(session.data.form))).text()
        expect(page).toContain(`<code id="order-id">${short}</code>`)
        expect(page).toContain(`Sipariş ödemesi ${short}`)
        expect(page).not.toContain("payses_")
      })

      it("refuses a return_url outside the configured storefront origins", async () => {
        const { response } = await cartWithSession(api, store, CHECKOUT_PROVIDER, { return_url: "https://evil.example/steal" })
        expect(response.status).toBe(400)
        expect(response.data.message).toMatch(/storefront origins/)
      })

      it("gives a freshly signed form only to the cart that owns the session", async () => {
        const { cart, session } = await startCheckout()
        const storedTs = Number(session.data.form.fields.ts)
        // ts has a resolution of one second: only once the clock has passed it can a re-signed form show a newer one.
        await waitFor(async () => Date.now() / 1000 >= storedTs + 1, 5_000, 50)
        const form = await freshForm(session.id, cart.id)
        // Signed again now (§5.2 rule 6: ts within 30 minutes), not the stored form handed back.
        expect(Number(form.fields.ts)).toBeGreaterThan(storedTs)
        expect(form.fields.signature).not.toBe(session.data.form.fields.signature)
        const other = await api.post(
          `/store/odeme/payment-sessions/${session.id}/form`,
          { cart_id: "cart_x" },
          { ...store.headers, validateStatus: () => true }
        )
        expect(other.status).toBe(404)
        const none = await api.post(`/store/odeme/payment-sessions/${session.id}/form`, {}, { ...store.headers, validateStatus: () => true })
        expect(none.status).toBe(400)
      })
    })

    describe("card flow", () => {
      it("approve → return route → webhook → one order, one capture; storefront complete afterwards gives the same order", async () => {
        const { cart, session } = await startCheckout()
        const page = await openCheckout(await freshForm(session.id, cart.id))
        const successUrl = await payByCard(page, "approve")
        expect(successUrl.startsWith(`${env.backendUrl}/odeme/return/${session.id}/success/${returnProof(env.emulator.apiKey, session.id)}?`)).toBe(
          true
        )
        expect(new URL(successUrl).searchParams.get("status")).toBe("success")

        const back = await follow(successUrl)
        expect(back.status).toBe(303)
        const target = new URL(back.location!)
        expect(target.origin).toBe(STOREFRONT)
        expect(target.pathname).toBe("/checkout/return")
        expect(target.searchParams.get("session_id")).toBe(session.id)
        // Anyone who knows a session id can open the return address: it never names the cart.
        expect(target.searchParams.get("cart_id")).toBeNull()
        expect(["paid", "pending"]).toContain(target.searchParams.get("status"))

        const orders = await paidOrder(cart.id)
        const again = await completeCart(api, store, cart.id)
        expect(again.data.type).toBe("order")
        expect(again.data.order.id).toBe(orders[0].id)
        expect(await ordersOfCart(getContainer(), cart.id)).toHaveLength(1)
        expect(await captureCount(cart.id)).toBe(1)
        expect((await paymentRow(session.id)).flow).toBe("card")

        // §4.11: confirmation goes through /api/sale/webhook/verify, never /api/sale/verify(/transaction).
        const paths = Object.keys((await env.emulator.control("GET", "/_control/requests/counts")).result)
        expect(paths).toContain("/api/sale/webhook/verify")
        expect(paths.filter((p) => p.startsWith("/api/sale/verify"))).toEqual([])
      })

      it("storefront complete before the webhook: confirming, then the same single order", async () => {
        const { cart, session } = await startCheckout()
        await env.emulator.control("POST", "/_control/webhooks", { paused: true })
        const page = await openCheckout(await freshForm(session.id, cart.id))
        const successUrl = await payByCard(page, "approve")
        const back = await follow(successUrl)
        expect(new URL(back.location!).searchParams.get("status")).toBe("pending")

        const early = await completeCart(api, store, cart.id)
        expect(early.status).toBe(200)
        expect(early.data.type).toBe("cart")
        expect(early.data.error.message).toMatch(/not been confirmed/)
        expect(await ordersOfCart(getContainer(), cart.id)).toHaveLength(0)

        await env.emulator.control("POST", "/_control/webhooks", { paused: false })
        await paidOrder(cart.id)
        const late = await completeCart(api, store, cart.id)
        expect(late.data.type).toBe("order")
        expect(await ordersOfCart(getContainer(), cart.id)).toHaveLength(1)
        expect(await captureCount(cart.id)).toBe(1)
      })

      it.each(["reject", "insufficient"] as const)("%s → no paid order, failed status on the return redirect", async (outcome) => {
        const { cart, session } = await startCheckout()
        const page = await openCheckout(await freshForm(session.id, cart.id))
        const cancelUrl = await payByCard(page, outcome)
        expect(cancelUrl.startsWith(`${env.backendUrl}/odeme/return/${session.id}/cancel/${returnProof(env.emulator.apiKey, session.id)}?`)).toBe(
          true
        )
        const back = await follow(cancelUrl)
        const target = new URL(back.location!)
        expect(target.searchParams.get("status")).toBe("failed")
        expect(target.searchParams.get("reason")).toBe(outcome === "reject" ? "authentication_failed" : "insufficient_funds")
        expect(target.searchParams.get("message")).toBeNull()
        await waitFor(async () => (await paymentRow(session.id)).status === "failed")
        const res = await completeCart(api, store, cart.id)
        expect(res.data.type).toBe("cart")
        expect(res.data.error.message).toMatch(/failed/)
        expect(await ordersOfCart(getContainer(), cart.id)).toHaveLength(0)
      })

      it("back through the cancel address before any notification: pending, marked returned=cancel, so the storefront offers to pay again", async () => {
        const { cart, session } = await startCheckout()
        await env.emulator.control("POST", "/_control/webhooks", { paused: true })
        try {
          const cancelUrl = await payByCard(await openCheckout(await freshForm(session.id, cart.id)), "reject")
          const target = new URL((await follow(cancelUrl)).location!)
          expect(Object.fromEntries(target.searchParams)).toEqual({ status: "pending", session_id: session.id, returned: "cancel" })
          expect((await paymentRow(session.id)).status).toBe("pending") // a redirect proves nothing
        } finally {
          await env.emulator.control("POST", "/_control/webhooks", { paused: false })
        }
      })
    })

    describe("transfer chosen on the Quick Checkout page", () => {
      it("waiting → approved → order captured", async () => {
        const { cart, session } = await startCheckout()
        const page = await openCheckout(await freshForm(session.id, cart.id))
        const { data: banks } = await api.get("/store/odeme/banks", store.headers)
        const waiting = await chooseTransfer(page, "Ayşe Yılmaz", banks.bank_groups[0].accounts[0].bank_id)
        expect(waiting).toMatch(/\/waiting$/)
        expect((await paymentRow(session.id)).status).toBe("pending")

        const uuid = new URL(page).pathname.split("/").pop()!
        await env.emulator.control("POST", `/_control/transfers/${uuid}/settle`, { result: "successful" })
        await paidOrder(cart.id)
        // The browser's own hop carries uuid and hash: it goes through the same (deduplicated) path.
        const done = await follow(waiting)
        const back = await follow(new URL(done.location!, waiting).toString())
        expect(new URL(back.location!).searchParams.get("status")).toBe("paid")
        expect(await captureCount(cart.id)).toBe(1)
        expect((await paymentRow(session.id)).flow).toBe("transfer_page")
      })
    })

    describe("duplicates and races", () => {
      it("the same webhook 20 times at once → stored once, processed once, one order and capture", async () => {
        const { cart, body } = await approvedWithPausedWebhook()
        const answers = await Promise.all(Array.from({ length: 20 }, () => postWebhook(body)))
        expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200))
        await paidOrder(cart.id)
        const rows = await notifications()
        expect(rows.filter((r: any) => r.source === "webhook")).toHaveLength(1)
        expect(rows[0].duplicate_count).toBe(19)
        expect(await captureCount(cart.id)).toBe(1)
      })

      it("webhook, redirect and storefront complete at the same time → one order, one capture, no 500s", async () => {
        const { cart, successUrl, body } = await approvedWithPausedWebhook()
        const results = await Promise.all([
          postWebhook(body).then((r) => r.status),
          follow(successUrl).then((r) => r.status),
          completeCart(api, store, cart.id).then((r: any) => r.status),
          env.emulator.control("POST", "/_control/webhooks", { paused: false }).then(() => 200),
        ])
        expect(results.every((s) => s < 500)).toBe(true)
        await paidOrder(cart.id)
        const final = await completeCart(api, store, cart.id)
        expect(final.data.type).toBe("order")
        expect(await ordersOfCart(getContainer(), cart.id)).toHaveLength(1)
        expect(await captureCount(cart.id)).toBe(1)
      })
    })

    describe("a notification sent to Medusa's generic hook route", () => {
      it("is stored in the same inbox and confirmed through the same path, once", async () => {
        const { cart, session } = await startCheckout()
        await env.emulator.control("POST", "/_control/webhooks", { paused: true })
        const page = await openCheckout(await freshForm(session.id, cart.id))
        await payByCard(page, "approve")
        const hooks = (await env.emulator.control("GET", "/_control/webhooks")).result
        const body = hooks[hooks.length - 1].body
        for (let i = 0; i < 3; i++) {
          const res = await fetch(`${env.backendUrl}/hooks/payment/odeme-checkout_odeme`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify(body),
          })
          expect(res.status).toBe(200)
        }
        // Medusa delays its hook events by 5 s. The row is settled right after Medusa is: wait for it.
        await paidOrder(cart.id)
        await waitFor(async () => (await notifications())[0]?.state === "done")
        const rows = await notifications()
        expect(rows).toHaveLength(1)
        expect(rows[0].duplicate_count).toBe(2)
        expect(rows[0].outcome).toBe("paid")
        expect(await captureCount(cart.id)).toBe(1)
        // Settings → Odeme tells the merchant that the merchant panel has Medusa's URL, not the plugin's.
        const admin = await createAdmin(api, getContainer())
        const settings = await api.get("/admin/odeme/settings", admin.headers)
        expect(settings.data.webhook_health.medusa_hook_24h).toBe(1)
        expect(settings.data.warnings).toEqual(
          expect.arrayContaining([
            { code: "webhooks_on_medusa_hook", severity: "warning", params: { url: `${env.backendUrl}/odeme/webhook`, count: "1" } },
          ])
        )
      })
    })

    describe("verify endpoint down for a while", () => {
      it("the notification waits in the inbox and is confirmed when verify is back, once", async () => {
        const { cart, session } = await startCheckout()
        await env.emulator.control("POST", "/_control/faults", { endpoint: "verify", mode: "error500", count: 6 })
        const page = await openCheckout(await freshForm(session.id, cart.id))
        await payByCard(page, "approve")
        await waitFor(async () => (await notifications()).some((n: any) => n.state === "retry"))
        await paidOrder(cart.id)
        const rows = (await notifications()).filter((n: any) => n.source === "webhook")
        expect(rows).toHaveLength(1)
        expect(rows[0].attempts).toBeGreaterThan(1)
        expect(await captureCount(cart.id)).toBe(1)
      })
    })
  })
}
