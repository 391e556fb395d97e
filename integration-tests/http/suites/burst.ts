/**
 * Issue 13: a burst of new notifications, as a payment service sends when it
 * retries a backlog after an outage. Every one is answered 2xx, stored once
 * and processed once (verified once at the service), however the background
 * queue and the poller share the work. Correctness only: no timing is checked.
 */
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { randomUUID } from "node:crypto"
import type { SuiteContext } from "../../utils/environment"

const BURST = 100
const VERIFY_PATH = "/api/sale/webhook/verify"

export function burstSuite({ env, getContainer }: SuiteContext) {
  describe("a burst of notifications", () => {
    const db = () => getContainer().resolve(ContainerRegistrationKeys.PG_CONNECTION)

    it(`${BURST} new notifications at once → all 2xx, each stored once and processed once`, async () => {
      await env.emulator.control("POST", "/_control/reset")
      const sessions = Array.from({ length: BURST }, (_, i) => `payses_burst${String(i).padStart(4, "0")}`)
      // The route needs only the payment row of the session; the service knows none of these, so verify refuses each.
      await db().raw(
        `insert into odeme_payment (id, session_id, provider, flow, mode, amount, currency)
         select 'odpay_' || s, s, 'odeme-checkout', 'card', 'sandbox', '250.00', 'TRY' from unnest(?::text[]) s`,
        [sessions]
      )
      const verifiesBefore = (await env.emulator.control("GET", `/_control/requests?path=${VERIFY_PATH}`)).result.length

      const statuses = await Promise.all(
        sessions.map(async (order_id) => {
          const res = await fetch(`${env.backendUrl}/odeme/webhook`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({
              order_id,
              uuid: randomUUID(),
              status: "successful",
              hash: "f".repeat(64),
              amount: "250.00",
              currency: "TRY",
              type: "credit_card",
            }),
          })
          await res.arrayBuffer()
          return res.status
        })
      )
      expect(statuses).toEqual(Array(BURST).fill(200))

      const open = async () =>
        Number((await db()("odeme_notification").whereIn("session_id", sessions).whereIn("state", ["received", "processing"]).count("* as n"))[0].n)
      for (const deadline = Date.now() + 120_000; (await open()) > 0;) {
        if (Date.now() > deadline) throw new Error(`${await open()} notifications still unprocessed after 120 s`)
        await new Promise((r) => setTimeout(r, 250))
      }

      const rows = await db()("odeme_notification").whereIn("session_id", sessions).select("session_id", "state", "attempts", "duplicate_count")
      expect(rows).toHaveLength(BURST)
      expect(new Set(rows.map((r: any) => r.session_id)).size).toBe(BURST)
      expect(rows.filter((r: any) => r.duplicate_count !== 0)).toEqual([])
      expect(rows.filter((r: any) => r.state !== "done" || r.attempts !== 1)).toEqual([])
      const verifies = (await env.emulator.control("GET", `/_control/requests?path=${VERIFY_PATH}`)).result.slice(verifiesBefore)
      expect(verifies).toHaveLength(BURST)
    })
  })
}
