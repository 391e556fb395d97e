/**
 * Every shape spec §6.2 does not forbid, as the only copy delivered: answered
 * 200 and paid once. The emulator sends each (its `shape` delivery setting);
 * verify answers is_valid for all of them, since the payment is the same.
 * And a notification for a reference this store never made: 200, counted,
 * kept only as a count and the last few, shown on Settings → Odeme.
 */
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { adminClient } from "../../utils/admin"
import { openCheckout, payByCard, waitFor } from "../../utils/checkout-driver"
import { resetEmulator, type SuiteContext } from "../../utils/environment"
import { cartOutcome } from "../../utils/inspect"
import { CHECKOUT_PROVIDER, cartWithSession, seedStore } from "../../utils/store"

const SHAPES = [
  "nulls",
  "empty_strings",
  "numbers_as_text",
  "text_as_numbers",
  "lira_tl",
  "nested_field",
  "many_fields",
  "form",
  "text_plain_json",
] as const

export function intakeShapesSuite({ env, api, getContainer }: SuiteContext) {
  const db = () => getContainer().resolve(ContainerRegistrationKeys.PG_CONNECTION)

  describe("every shape of the service's delivery gets in", () => {
    it.each(SHAPES)("a card payment whose only notification comes as %s: answered 200, paid once", async (shape) => {
      await resetEmulator(env, [500, 1000])
      await env.emulator.control("POST", "/_control/webhooks", { shape })
      const store = await seedStore(getContainer(), { providers: [CHECKOUT_PROVIDER] })
      const { cart, session } = await cartWithSession(api, store, CHECKOUT_PROVIDER, {})
      const {
        data: { form },
      } = await api.post(`/store/odeme/payment-sessions/${session.id}/form`, { cart_id: cart.id }, store.headers)
      // The shopper closed the tab: the return is never followed, the webhook is the only way in.
      await payByCard(await openCheckout(form), "approve")

      const outcome = await waitFor(async () => {
        const o = await cartOutcome(getContainer(), cart.id)
        return o.captures >= 1 ? o : undefined
      }, 30_000)
      expect(outcome).toEqual(expect.objectContaining({ orders: 1, captures: 1 }))
      const hooks = (await env.emulator.control("GET", "/_control/webhooks")).result as Array<{
        shape: string
        attempts: Array<{ http_status?: number }>
      }>
      expect(hooks).toHaveLength(1)
      expect(hooks[0].shape).toBe(shape)
      expect(hooks[0].attempts.map((a) => a.http_status)).toEqual([200])
      // The row is settled once Medusa's side is done (the capture comes first).
      const rows = await waitFor(async () => {
        const found = await db()("odeme_notification").where({ session_id: session.id }).select("state", "outcome", "payload")
        return found.every((r: { state: string }) => r.state === "done") ? found : undefined
      }, 15_000)
      expect(rows).toEqual([expect.objectContaining({ state: "done", outcome: "paid" })])
      // Kept as it came: the nested field, the lira's spelling.
      if (shape === "nested_field") expect(rows[0].payload.customer).toEqual(expect.objectContaining({ address: { city: "İzmir" } }))
      if (shape === "lira_tl") expect(rows[0].payload.currency).toBe("TL")
      // Settled after a second look: nothing more happens, one capture.
      expect(await cartOutcome(getContainer(), cart.id)).toEqual(expect.objectContaining({ orders: 1, captures: 1 }))
    })

    it("refuses only junk: a body that is not fields, or lacks one of the four fields verify is sent", async () => {
      const post = (body: string, type = "application/json") =>
        fetch(`${env.backendUrl}/odeme/webhook`, { method: "POST", headers: { "content-type": type }, body })
      expect((await post("{not json")).status).toBe(400)
      expect((await post(JSON.stringify({ order_id: "payses_x", uuid: "u", status: "successful" }))).status).toBe(400)
      expect((await post("hello", "text/plain")).status).toBe(400)
      expect((await post("x".repeat(70 * 1024), "text/plain")).status).toBe(413)
    })
  })

  describe("a notification for a reference this store never made", () => {
    const admin = adminClient(api, getContainer, { apiKey: () => env.emulator.apiKey, minResponses: 1 })
    it("is answered 200, costs a count and the last few, and Settings → Odeme says so", async () => {
      await resetEmulator(env)
      const before = await db()("odeme_notification").count("* as n").first()
      const statuses: number[] = []
      for (let i = 0; i < 40; i++) {
        const res = await fetch(`${env.backendUrl}/odeme/webhook`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ order_id: `payses_elsewhere${i}`, uuid: `u-${i}`, status: "successful", hash: `h-${i}`, amount: 10 }),
        })
        statuses.push(res.status)
        expect(await res.json()).toEqual({ received: true, duplicate: false })
      }
      expect(new Set(statuses)).toEqual(new Set([200]))
      // Nothing of them in the inbox; one row of counts.
      expect((await db()("odeme_notification").count("* as n").first())?.n).toBe(before?.n)
      const health = await db()("odeme_health").where({ id: "stray_notifications" }).first()
      expect(health).toEqual(expect.objectContaining({ count: 40 }))
      expect(health.recent).toHaveLength(5)
      expect(health.recent[0]).toEqual(expect.objectContaining({ order_id: "payses_elsewhere39" }))

      const settings = (await admin.get("/admin/odeme/settings")).data
      expect(settings.webhook_health.strays).toEqual({ count: 40, last_at: expect.any(String), recent: expect.any(Array) })
      expect(settings.warnings).toContainEqual({
        code: "stray_notifications",
        severity: "warning",
        params: { count: "40", last: settings.webhook_health.strays.last_at },
      })
    })
  })
}
