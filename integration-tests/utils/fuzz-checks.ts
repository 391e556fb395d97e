/**
 * Checks the fuzz tests make on the database after a run: what changed, that a
 * 5xx is Medusa's own (not the plugin's), and that no secret was stored.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { malformedEncoding, type answerRecorder, type Answer } from "./answer-recorder"
import type { SeededStore } from "./store"

export function fuzzChecks(getContainer: () => MedusaContainer, recorder: ReturnType<typeof answerRecorder>) {
  const { send, leakIn, frameworkDecodeErrors } = recorder
  const db = () => getContainer().resolve(ContainerRegistrationKeys.PG_CONNECTION)

  /** Row counts plus a hash of the whole odeme_payment table. */
  async function snapshot() {
    const [{ n: payments, h: paymentHash }] =
      // Every column but the verify budget's bookkeeping (forged copies do spend the budget: that is its point) and
      // when a form was last signed (the owner's own requests among the fuzzed ones get forms, as they should).
      (
        await db().raw(
          `select count(*)::int as n, coalesce(md5(string_agg((to_jsonb(t) - 'verify_calls' - 'verify_window_started_at' - 'form_signed_at')::text, '|' order by t.id)), '') as h from odeme_payment t`
        )
      ).rows
    const [{ n: notifications }] = (await db().raw(`select count(*)::int as n from odeme_notification`)).rows
    return { payments, paymentHash, notifications: notifications as number }
  }
  const notificationCount = async () => (await snapshot()).notifications

  /**
   * Express throws "Failed to decode param" (a URIError with status 400) for a
   * path parameter such as "%zz" or "%C0%AF", and Medusa 2.21's error handler
   * answers it with 500 on every route with parameters, core routes included.
   * That is framework behaviour a plugin cannot change without replacing the
   * app-wide error handler; such a 5xx is accepted only if Medusa's own
   * GET /store/carts/:id answers the same segment with the same status.
   */
  const coreAnswers = new Map<string, number>()
  async function acceptFrameworkDecodeError(res: Answer, segments: string[], store: SeededStore) {
    const headers = store.headers.headers
    const bad = segments.find(malformedEncoding)
    if (!bad) throw new Error(`${res.method} ${res.url} → ${res.status}: ${res.body.slice(0, 300)}`)
    if (!coreAnswers.has(bad)) {
      const core = await send("GET", `/store/carts/${bad}`, { headers })
      if (core.status !== res.status)
        throw new Error(`core ${core.status} ${core.body.slice(0, 300)} vs plugin ${res.url} ${res.status} ${res.body.slice(0, 300)}`)
      coreAnswers.set(bad, core.status)
    }
    expect(coreAnswers.get(bad)).toBe(res.status)
    frameworkDecodeErrors.push(`${res.method} ${new URL(res.url).pathname}`)
  }

  async function assertNoSecretInStoredData() {
    const payment = getContainer().resolve(Modules.PAYMENT)
    const sessions = await payment.listPaymentSessions({}, { take: 10_000 })
    expect(sessions.length).toBeGreaterThan(0)
    for (const s of sessions) expect(leakIn(JSON.stringify(s))).toBeUndefined()
    const rows = [...(await db()("odeme_payment").select("*")), ...(await db()("odeme_notification").select("*"))]
    expect(leakIn(JSON.stringify(rows))).toBeUndefined()
  }

  return { snapshot, notificationCount, acceptFrameworkDecodeError, assertNoSecretInStoredData }
}
