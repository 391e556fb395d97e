import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { chooseTransfer, follow, openCheckout, payByCard, waitFor } from "../utils/checkout-driver"
import { useOdemeEnvironment } from "../utils/environment"
import { ordersOfCart } from "../utils/inspect"
import { CHECKOUT_PROVIDER, cartWithSession, completeCart, seedStore, type SeededStore } from "../utils/store"

const env = useOdemeEnvironment({ env: { ODEME_STOREFRONT_URL: "http://localhost:8000" } })

medusaIntegrationTestRunner({
  cwd: process.cwd(),
  testSuite: ({ api, getContainer }) => {
    let store: SeededStore

    beforeEach(async () => {
      await env.emulator.control("POST", "/_control/reset")
      await env.emulator.control("POST", "/_control/config", {
        webhookUrl: `${env.backendUrl}/odeme/webhook`,
        webhookRetryDelaysMs: [300, 600, 1200, 2400],
      })
      store = await seedStore(getContainer(), { providers: [CHECKOUT_PROVIDER] })
    })

    const db = () => getContainer().resolve(ContainerRegistrationKeys.PG_CONNECTION)
    const notifications = async () => db()("odeme_notification").select("*").orderBy("created_at")
    const paymentRow = async (sessionId: string) => db()("odeme_payment").where({ session_id: sessionId }).first()
    const captureCount = async (cartId: string) => {
      const orders = await ordersOfCart(getContainer(), cartId)
      return orders.flatMap((o: any) => o.payment_collections.flatMap((pc: any) => (pc.payments ?? []).flatMap((p: any) => p.captures ?? []))).length
    }

    async function freshForm(sessionId: string, cartId: string) {
      const res = await api.post(`/store/odeme/payment-sessions/${sessionId}/form`, { cart_id: cartId }, store.headers)
      return res.data.form
    }

    async function startCheckout() {
      const { cart, session, response } = await cartWithSession(api, store, CHECKOUT_PROVIDER, {})
      expect(response.status).toBe(200)
      return { cart, session }
    }

    async function paidOrder(cartId: string) {
      return waitFor(async () => {
        const orders = await ordersOfCart(getContainer(), cartId)
        const captured = orders[0]?.payment_collections?.[0]?.payments?.[0]?.captured_at
        return orders.length === 1 && captured ? orders : undefined
      })
    }

    describe("session data", () => {
      it("holds the signed form and reference, never the API key", async () => {
        const { session } = await startCheckout()
        expect(session.data).toEqual(
          expect.objectContaining({
            provider: "odeme-checkout",
            reference: session.id,
            amount: "250.00",
            currency: "TRY",
            description: `Sipariş ${session.id}`,
            form: expect.objectContaining({
              action: `${env.emulator.url}/checkout/quick`,
              method: "POST",
              fields: expect.objectContaining({
                order_id: session.id,
                amount: "250.00",
                currency: "TRY",
                success_url: `${env.backendUrl}/odeme/return/${session.id}/success`,
                cancel_url: `${env.backendUrl}/odeme/return/${session.id}/cancel`,
                signature: expect.stringMatching(/^[0-9a-f]{64}$/),
              }),
            }),
          })
        )
        expect(JSON.stringify(session)).not.toContain(env.emulator.apiKey)
      })

      it("refuses a return_url outside the configured storefront origins", async () => {
        const { response } = await cartWithSession(api, store, CHECKOUT_PROVIDER, { return_url: "https://evil.example/steal" })
        expect(response.status).toBe(400)
        expect(response.data.message).toMatch(/storefront origins/)
      })

      it("gives a freshly signed form only to the cart that owns the session", async () => {
        const { cart, session } = await startCheckout()
        const form = await freshForm(session.id, cart.id)
        expect(Number(form.fields.ts)).toBeGreaterThanOrEqual(Number(session.data.form.fields.ts))
        const other = await api.post(`/store/odeme/payment-sessions/${session.id}/form`, { cart_id: "cart_x" }, { ...store.headers, validateStatus: () => true })
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
        expect(successUrl.startsWith(`${env.backendUrl}/odeme/return/${session.id}/success?`)).toBe(true)
        expect(new URL(successUrl).searchParams.get("status")).toBe("success")

        const back = await follow(successUrl)
        expect(back.status).toBe(303)
        const target = new URL(back.location!)
        expect(target.origin).toBe("http://localhost:8000")
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
        expect(cancelUrl.startsWith(`${env.backendUrl}/odeme/return/${session.id}/cancel?`)).toBe(true)
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
      async function approvedWithPausedWebhook() {
        const { cart, session } = await startCheckout()
        await env.emulator.control("POST", "/_control/webhooks", { paused: true })
        const page = await openCheckout(await freshForm(session.id, cart.id))
        const successUrl = await payByCard(page, "approve")
        const hooks = (await env.emulator.control("GET", "/_control/webhooks")).result ?? []
        const body = hooks[hooks.length - 1].body
        return { cart, session, successUrl, body }
      }

      it("the same webhook 20 times at once → stored once, processed once, one order and capture", async () => {
        const { cart, body } = await approvedWithPausedWebhook()
        const answers = await Promise.all(
          Array.from({ length: 20 }, () => fetch(`${env.backendUrl}/odeme/webhook`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }))
        )
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
          fetch(`${env.backendUrl}/odeme/webhook`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }).then((r) => r.status),
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
      })
    })

    describe("tampering", () => {
      async function approved() {
        const { cart, session } = await startCheckout()
        await env.emulator.control("POST", "/_control/webhooks", { paused: true })
        const page = await openCheckout(await freshForm(session.id, cart.id))
        await payByCard(page, "approve")
        const hooks = (await env.emulator.control("GET", "/_control/webhooks")).result
        return { cart, session, body: hooks[hooks.length - 1].body }
      }
      const send = (body: unknown) =>
        fetch(`${env.backendUrl}/odeme/webhook`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) })

      it("forged hash, changed amount → each stored and judged on its own, never paid", async () => {
        const { cart, session, body } = await approved()
        for (const forged of [
          { ...body, hash: "0".repeat(64) },
          { ...body, amount: 1 },
        ]) {
          expect((await send(forged)).status).toBe(200)
        }
        // Copies that differ are rows of their own: neither shadows the other (nor the genuine one).
        await waitFor(async () => (await notifications()).filter((n: any) => n.state === "done").length === 2)
        await new Promise((r) => setTimeout(r, 1000))
        expect((await paymentRow(session.id)).status).not.toBe("paid")
        expect(await ordersOfCart(getContainer(), cart.id)).toHaveLength(0)
      })

      it("another session's reference → invalid at verify, neither session paid", async () => {
        const a = await approved()
        const { session: b, cart: cartB } = await startCheckout()
        expect((await send({ ...a.body, order_id: b.id })).status).toBe(200)
        await waitFor(async () => (await notifications()).some((n: any) => n.session_id === b.id && n.state === "done"))
        const row = (await notifications()).find((n: any) => n.session_id === b.id)
        expect(row.outcome).toBe("rejected")
        expect((await paymentRow(b.id)).status).toBe("pending")
        expect(await ordersOfCart(getContainer(), cartB.id)).toHaveLength(0)
      })

      it("a replayed notification of a failed payment never pays it", async () => {
        const { cart, session } = await startCheckout()
        const page = await openCheckout(await freshForm(session.id, cart.id))
        await payByCard(page, "reject")
        await waitFor(async () => (await paymentRow(session.id)).status === "failed")
        const hooks = (await env.emulator.control("GET", "/_control/webhooks")).result
        const failed = hooks[hooks.length - 1].body
        for (const replay of [failed, { ...failed, status: "successful" }, { ...failed, status: "successful", message: "successful" }]) {
          expect((await send(replay)).status).toBe(200)
        }
        await new Promise((r) => setTimeout(r, 1500))
        expect((await paymentRow(session.id)).status).toBe("failed")
        expect(await ordersOfCart(getContainer(), cart.id)).toHaveLength(0)
      })

      it("a valid payment of another amount for the session's reference → review, never paid", async () => {
        const { cart, session } = await startCheckout()
        const created = await fetch(`${env.emulator.url}/api/pay/credit_card`, {
          method: "POST",
          headers: { "content-type": "application/json", "api-key": env.emulator.apiKey },
          body: JSON.stringify({ amount: "1.00", currency: "TRY", order_id: session.id }),
        }).then((r) => r.json())
        await env.emulator.control("POST", `/_control/payments/${created.uuid}/complete`, { outcome: "approve" })
        await waitFor(async () => (await paymentRow(session.id)).status === "review")
        expect((await notifications())[0].outcome).toBe("rejected")
        expect((await paymentRow(session.id)).review_code).toBe("amount_mismatch")
        expect(await ordersOfCart(getContainer(), cart.id)).toHaveLength(0)
      })
    })

    describe("bad input changes nothing", () => {
      it.each([
        ["empty body", 400, {}],
        ["wrong types", 400, { order_id: ["x"], uuid: 5, status: true, hash: {} }],
        ["unknown status", 400, { order_id: "payses_X", uuid: "u", status: "maybe", hash: "h" }],
        ["bad amount", 400, { order_id: "payses_X", uuid: "u", status: "successful", hash: "h", amount: "1e9;drop" }],
        ["unknown session", 404, { order_id: "payses_01NOTASESSION000000000000", uuid: "u", status: "successful", hash: "h" }],
      ])("webhook: %s → %d", async (_name, code, body) => {
        const res = await fetch(`${env.backendUrl}/odeme/webhook`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) })
        expect(res.status).toBe(code)
        expect((await res.json()).message).toEqual(expect.any(String))
        expect(await notifications()).toHaveLength(0)
      })

      it("webhook: huge body → 413, invalid JSON → 400", async () => {
        const huge = await fetch(`${env.backendUrl}/odeme/webhook`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ order_id: "x".repeat(200_000) }),
        })
        expect(huge.status).toBe(413)
        const broken = await fetch(`${env.backendUrl}/odeme/webhook`, { method: "POST", headers: { "content-type": "application/json" }, body: "{not json" })
        expect(broken.status).toBe(400)
        expect(await notifications()).toHaveLength(0)
      })

      it("webhook: form-encoded notifications are accepted too", async () => {
        const { session } = await startCheckout()
        const res = await fetch(`${env.backendUrl}/odeme/webhook`, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ order_id: session.id, uuid: "00000000-0000-4000-8000-000000000000", status: "successful", hash: "f".repeat(64), amount: "250.00", currency: "TRY" }).toString(),
        })
        expect(res.status).toBe(200)
        await waitFor(async () => (await notifications())[0]?.state === "done")
        expect((await notifications())[0].outcome).toBe("rejected")
      })

      it("return route: bad outcome, malformed id, unknown session → 4xx and no redirect", async () => {
        const { session } = await startCheckout()
        expect((await follow(`${env.backendUrl}/odeme/return/${session.id}/maybe`)).status).toBe(400)
        expect((await follow(`${env.backendUrl}/odeme/return/not-a-session/success`)).status).toBe(400)
        expect((await follow(`${env.backendUrl}/odeme/return/payses_01NOTASESSION000000000000/success`)).status).toBe(404)
        expect((await follow(`${env.backendUrl}/odeme/return/${session.id}/success?status=a&status=b`)).status).toBe(400)
        expect(await notifications()).toHaveLength(0)
      })

      it("return route: parameters never choose the redirect target nor pay anything", async () => {
        const { session } = await startCheckout()
        const res = await follow(
          `${env.backendUrl}/odeme/return/${session.id}/success?status=success&amount=250.00&currency=TRY&hash=abc&return_url=https://evil.example&redirect=https://evil.example`
        )
        expect(res.status).toBe(303)
        expect(new URL(res.location!).origin).toBe("http://localhost:8000")
        expect(new URL(res.location!).searchParams.get("status")).toBe("pending")
        expect((await paymentRow(session.id)).status).toBe("pending")
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
  },
})
