/**
 * Someone who knows a session id floods it with forged notifications (random
 * uuid and hash): each is stored (nothing tells it from the genuine one before
 * verify) and verified within the session's budget of 20 a minute. The
 * genuine notification must not wait behind them: once the flood stops it is
 * verified in the next window however long the backlog; from the service's
 * named address it goes first while the flood goes on; from the flood's own
 * address it may wait while the flood lasts, and is listed as held back.
 */
import { randomBytes, randomUUID } from "node:crypto"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { adminClient } from "../../utils/admin"
import { openCheckout, payByCard, waitFor } from "../../utils/checkout-driver"
import { resetEmulator, type SuiteContext } from "../../utils/environment"
import { cartOutcome } from "../../utils/inspect"
import { CHECKOUT_PROVIDER, cartWithSession, seedStore } from "../../utils/store"

/** The address the plugin's options name as the service's (intake.spec.ts). */
export const SERVICE_ADDRESS = "192.0.2.10"
const ELSEWHERE = "198.51.100.7"

export function intakeFloodSuite({ env, api, getContainer }: SuiteContext) {
  describe("a flood of forged copies holds no payment back", () => {
    const admin = adminClient(api, getContainer, { apiKey: () => env.emulator.apiKey, minResponses: 2 })

    /** Posts a notification as if from `from` (X-Forwarded-For through the trusted proxy); null: the connection's own address. */
    const deliver = (body: unknown, from: string | null) =>
      fetch(`${env.backendUrl}/odeme/webhook`, {
        method: "POST",
        headers: { "content-type": "application/json", ...(from ? { "x-forwarded-for": from } : {}) },
        body: JSON.stringify(body),
      })
    const forged = (sessionId: string) => ({
      order_id: sessionId,
      uuid: randomUUID(),
      status: "successful",
      hash: randomBytes(32).toString("hex"),
      type: "credit_card",
      amount: 250,
      currency: "TRY",
    })

    /** Forged copies from `from`, `inFlight` at a time, until `stop()` (or `count` are answered). */
    function flood(sessionId: string, from: string | null, count = Infinity, inFlight = 20) {
      const answers = new Map<number, number>()
      let sent = 0
      let stopped = false
      const one = async (): Promise<void> => {
        while (!stopped && sent < count) {
          sent++
          const res = await deliver(forged(sessionId), from)
          answers.set(res.status, (answers.get(res.status) ?? 0) + 1)
        }
      }
      const done = Promise.all(Array.from({ length: inFlight }, one))
      return {
        answers,
        get sent() {
          return sent
        },
        done,
        stop: async () => {
          stopped = true
          await done
        },
      }
    }

    async function cardSession() {
      const store = await seedStore(getContainer(), { providers: [CHECKOUT_PROVIDER] })
      const { cart, session } = await cartWithSession(api, store, CHECKOUT_PROVIDER, {})
      const {
        data: { form },
      } = await api.post(`/store/odeme/payment-sessions/${session.id}/form`, { cart_id: cart.id }, store.headers)
      return { cartId: cart.id as string, sessionId: session.id as string, form }
    }
    const captured = (cartId: string) => cartOutcome(getContainer(), cartId).then((o) => o.captures)
    const verifyCalls = async () =>
      Number((await env.emulator.control("GET", "/_control/requests/counts?path=/api/sale/webhook/verify")).result["/api/sale/webhook/verify"] ?? 0)

    it("1,200 forged copies, then the genuine one: paid in the next verify window, not after the backlog", async () => {
      await resetEmulator(env, [500, 1000, 2000])
      const { cartId, sessionId, form } = await cardSession()
      const started = Date.now()
      const copies = flood(sessionId, ELSEWHERE, 1200)
      await copies.done
      expect([...copies.answers.entries()]).toEqual([[200, 1200]])
      // The session's verify budget for this window is spent on copies: the genuine one cannot be verified before the next.
      const db = getContainer().resolve(ContainerRegistrationKeys.PG_CONNECTION)
      await waitFor(
        async () => Number((await db("odeme_notification").where({ session_id: sessionId }).sum("deferrals as d").first())?.d ?? 0) > 0,
        60_000
      )

      // The shopper pays; the service delivers from an address nothing tells apart; the tab is closed.
      await payByCard(await openCheckout(form), "approve")
      const delivered = Date.now()
      // The budget's old order worked the backlog off first: 1,200 copies at 20 a minute, an hour.
      await waitFor(async () => (await captured(cartId)) === 1, 150_000, 500)
      const paidAfterMs = Date.now() - delivered
      expect(await cartOutcome(getContainer(), cartId)).toEqual(expect.objectContaining({ orders: 1, captures: 1 }))
      // The forged copies still wait: the genuine one did not wait for them, and verify kept its budget.
      const open = await db("odeme_notification")
        .where({ session_id: sessionId })
        .whereIn("state", ["received", "retry", "processing"])
        .count("* as n")
        .first()
      expect(Number(open?.n)).toBeGreaterThan(1000)
      expect(await verifyCalls()).toBeLessThanOrEqual(20 * (Math.ceil((Date.now() - started) / 60_000) + 1))
      console.log(`forged flood: 1200 copies; the genuine one paid ${paidAfterMs} ms after its delivery`)
    })

    it("from the service's named address, the genuine one is paid while a flood from elsewhere goes on", async () => {
      await resetEmulator(env, [500, 1000, 2000])
      const { cartId, sessionId, form } = await cardSession()
      const copies = flood(sessionId, ELSEWHERE)
      try {
        // The session's budget is spent on copies before the payment.
        await waitFor(async () => copies.sent >= 100, 60_000)
        await env.emulator.control("POST", "/_control/webhooks", { paused: true })
        await payByCard(await openCheckout(form), "approve")
        const [hook] = (await env.emulator.control("GET", "/_control/webhooks")).result as Array<{ body: unknown }>
        expect((await deliver(hook.body, SERVICE_ADDRESS)).status).toBe(200)
        const sentAtDelivery = copies.sent
        await waitFor(async () => (await captured(cartId)) === 1, 30_000, 200)
        // Still flooding when it was paid.
        expect(copies.sent).toBeGreaterThan(sentAtDelivery)
      } finally {
        await copies.stop()
      }
      expect([...copies.answers.keys()]).toEqual([200])
      expect(await cartOutcome(getContainer(), cartId)).toEqual(expect.objectContaining({ orders: 1, captures: 1 }))
    })

    it("from the flood's own address, the genuine one may wait while the flood lasts, and is listed as held back", async () => {
      await resetEmulator(env, [500, 1000, 2000])
      const { cartId, sessionId, form } = await cardSession()
      // The emulator delivers from this machine's address, with no forwarded header: the flood comes from the same.
      const copies = flood(sessionId, null)
      try {
        const db = getContainer().resolve(ContainerRegistrationKeys.PG_CONNECTION)
        await waitFor(
          async () => Number((await db("odeme_notification").where({ session_id: sessionId }).sum("deferrals as d").first())?.d ?? 0) > 0,
          60_000
        )
        await payByCard(await openCheckout(form), "approve")
        const items = await waitFor(async () => {
          const { items } = (await admin.get("/admin/odeme/attention?limit=100")).data
          const held = items.find((i: any) => i.code === "notifications_held_back" && i.session_id === sessionId)
          return held && (await captured(cartId)) === 0 ? items : undefined
        }, 60_000)
        expect(items).toContainEqual(
          expect.objectContaining({
            kind: "processing",
            code: "notifications_held_back",
            session_id: sessionId,
            count: expect.any(Number),
            actions: ["check"],
          })
        )
        const settings = (await admin.get("/admin/odeme/settings")).data
        expect(settings.warnings).toContainEqual(expect.objectContaining({ code: "notifications_held_back", severity: "warning" }))
        // Waiting, not lost: the genuine notification is stored and open.
        const [hook] = (await env.emulator.control("GET", "/_control/webhooks")).result as Array<{
          body: { uuid: string }
          attempts: Array<{ http_status?: number }>
        }>
        expect(hook.attempts.map((a) => a.http_status)).toEqual([200])
        const genuine = await db("odeme_notification").where({ session_id: sessionId, service_uuid: hook.body.uuid }).first()
        expect(genuine).toEqual(expect.objectContaining({ source: "webhook" }))
      } finally {
        await copies.stop()
      }
    })
  })
}
