/**
 * Quick Checkout against hostile input: forged, replayed or foreign
 * notifications and malformed requests pay nothing and change nothing.
 */
import { follow, openCheckout, payByCard, waitFor } from "../../utils/checkout-driver"
import { checkoutSuite, STOREFRONT } from "../../utils/checkout-suite"
import type { SuiteContext } from "../../utils/environment"
import { ordersOfCart } from "../../utils/inspect"

export function checkoutTamperingSuite({ env, api, getContainer }: SuiteContext) {
  describe("Quick Checkout against hostile input", () => {
    const suite = checkoutSuite({ api, getContainer, env })
    const { notifications, paymentRow, settled, postWebhook, freshForm, startCheckout, approvedWithPausedWebhook } = suite
    beforeEach(async () => {
      await suite.reset()
    })

    describe("tampering", () => {
      it("forged hash, changed amount → each stored and judged on its own, never paid", async () => {
        const { cart, session, body } = await approvedWithPausedWebhook()
        for (const forged of [
          { ...body, hash: "0".repeat(64) },
          { ...body, amount: 1 },
        ]) {
          expect((await postWebhook(forged)).status).toBe(200)
        }
        // Copies that differ are rows of their own: neither shadows the other (nor the genuine one).
        await waitFor(async () => (await notifications()).filter((n: any) => n.state === "done").length === 2)
        await settled(session.id, 2)
        expect((await paymentRow(session.id)).status).not.toBe("paid")
        expect(await ordersOfCart(getContainer(), cart.id)).toHaveLength(0)
      })

      it("another session's reference → invalid at verify, neither session paid", async () => {
        const a = await approvedWithPausedWebhook()
        const { session: b, cart: cartB } = await startCheckout()
        expect((await postWebhook({ ...a.body, order_id: b.id })).status).toBe(200)
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
          expect((await postWebhook(replay)).status).toBe(200)
        }
        // The genuine notification and the three replays (an exact copy counts as a duplicate) all judged.
        await settled(session.id, 4)
        expect((await paymentRow(session.id)).status).toBe("failed")
        expect(await ordersOfCart(getContainer(), cart.id)).toHaveLength(0)
      })

      it("a valid payment of another amount for the session's reference → review, never paid", async () => {
        const { cart, session } = await startCheckout()
        const created = await fetch(`${env.emulator.url}/api/pay/credit_card`, {
          method: "POST",
          headers: { "content-type": "application/json", "api-key": env.emulator.apiKey },
          body: JSON.stringify({ amount: "1.00", currency: "TRY", order_id: session.data.shopper_reference }),
        }).then((r) => r.json())
        await env.emulator.control("POST", `/_control/payments/${created.uuid}/complete`, { outcome: "approve" })
        await waitFor(async () => (await paymentRow(session.id)).status === "review")
        // The payment is written before the notification's row is settled (the workflow's last step): wait for both.
        await waitFor(async () => (await notifications())[0]?.state === "done")
        expect((await notifications())[0].outcome).toBe("rejected")
        expect((await paymentRow(session.id)).review_code).toBe("amount_mismatch")
        expect(await ordersOfCart(getContainer(), cart.id)).toHaveLength(0)
      })
    })

    describe("bad input changes nothing", () => {
      it.each([
        ["empty body", 400, {}],
        ["wrong types", 400, { order_id: ["x"], uuid: 5, status: true, hash: {} }],
        ["no hash", 400, { order_id: "payses_X", uuid: "u", status: "successful" }],
      ])("webhook: %s → %d", async (_name, code, body) => {
        const res = await postWebhook(body)
        expect(res.status).toBe(code)
        expect((await res.json()).message).toEqual(expect.any(String))
        expect(await notifications()).toHaveLength(0)
      })

      // Spec §1: the URL answers 200. A reference this store never made is counted, never stored (issue 41).
      it.each([
        ["unknown status", { order_id: "payses_X", uuid: "u", status: "maybe", hash: "h" }],
        ["bad amount", { order_id: "payses_X", uuid: "u", status: "successful", hash: "h", amount: "1e9;drop" }],
        ["unknown session", { order_id: "payses_01NOTASESSION000000000000", uuid: "u", status: "successful", hash: "h" }],
      ])("webhook for a reference this store never made (%s) → 200, nothing stored", async (_name, body) => {
        const res = await postWebhook(body)
        expect(res.status).toBe(200)
        expect(await res.json()).toEqual({ received: true, duplicate: false })
        expect(await notifications()).toHaveLength(0)
      })

      it("webhook with a word or amount the spec does not use, for a real session → stored, judged by verify, never paid", async () => {
        const { session } = await startCheckout()
        for (const body of [
          { order_id: session.id, uuid: "u-1", status: "maybe", hash: "h" },
          { order_id: session.id, uuid: "u-2", status: "successful", hash: "h", amount: "1e9;drop" },
        ]) {
          expect((await postWebhook(body)).status).toBe(200)
        }
        await waitFor(async () => {
          const rows = await notifications()
          return rows.length === 2 && rows.every((r: { state: string }) => r.state === "done")
        })
        expect((await notifications()).map((r: { outcome: string }) => r.outcome)).toEqual(["rejected", "rejected"])
        expect((await paymentRow(session.id)).status).toBe("pending")
      })

      it("webhook: huge body → 413, invalid JSON → 400", async () => {
        const huge = await fetch(`${env.backendUrl}/odeme/webhook`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ order_id: "x".repeat(200_000) }),
        })
        expect(huge.status).toBe(413)
        const broken = await fetch(`${env.backendUrl}/odeme/webhook`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: "{not json",
        })
        expect(broken.status).toBe(400)
        expect(await notifications()).toHaveLength(0)
      })

      it("webhook: form-encoded notifications are accepted too", async () => {
        const { session } = await startCheckout()
        const res = await fetch(`${env.backendUrl}/odeme/webhook`, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({
            order_id: session.id,
            uuid: "00000000-0000-4000-8000-000000000000",
            status: "successful",
            hash: "f".repeat(64),
            amount: "250.00",
            currency: "TRY",
          }).toString(),
        })
        expect(res.status).toBe(200)
        await waitFor(async () => (await notifications())[0]?.state === "done")
        expect((await notifications())[0].outcome).toBe("rejected")
      })

      it("return route: bad outcome, malformed id, unknown session → 4xx and no redirect", async () => {
        const { session } = await startCheckout()
        expect((await follow(`${env.backendUrl}/odeme/return/${session.id}/maybe`)).status).toBe(400)
        expect((await follow(`${env.backendUrl}/odeme/return/not-a-session/success`)).status).toBe(400)
        const unknown = await follow(`${env.backendUrl}/odeme/return/payses_01NOTASESSION000000000000/success`)
        expect(unknown.status).toBe(404)
        // A customer's browser shows it: a code the storefront translates, as every customer-facing error has.
        expect(unknown.text).toContain("odeme.session_unknown")
        expect((await follow(`${env.backendUrl}/odeme/return/${session.id}/success?status=a&status=b`)).status).toBe(400)
        expect(await notifications()).toHaveLength(0)
      })

      it("return route: parameters never choose the redirect target nor pay anything", async () => {
        const { session } = await startCheckout()
        const res = await follow(
          `${env.backendUrl}/odeme/return/${session.id}/success?status=success&amount=250.00&currency=TRY&hash=abc&return_url=https://evil.example&redirect=https://evil.example`
        )
        expect(res.status).toBe(303)
        expect(new URL(res.location!).origin).toBe(STOREFRONT)
        expect(new URL(res.location!).searchParams.get("status")).toBe("pending")
        expect((await paymentRow(session.id)).status).toBe("pending")
      })
    })
  })
}
