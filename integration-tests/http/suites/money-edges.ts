/**
 * Money Medusa keeps to more digits than the service's two, and sessions a
 * store carried over from before the plugin tagged its session data (issue 41).
 */
import { ContainerRegistrationKeys, MathBN } from "@medusajs/framework/utils"
import { pollTransfers } from "../../../src/workflows/poller/poll-transfers"
import { waitFor } from "../../utils/checkout-driver"
import type { SuiteContext } from "../../utils/environment"
import { paymentProvider } from "../../utils/inspect"
import { CHECKOUT_PROVIDER, completeCart, pendingTransferCart, seedStore, serviceOrderIdOf, TRANSFER_PROVIDER } from "../../utils/store"

export function moneyEdgesSuite({ env, api, getContainer }: SuiteContext) {
  describe("money to more digits, and sessions from before the tag", () => {
    const db = () => getContainer().resolve(ContainerRegistrationKeys.PG_CONNECTION)
    const row = async (sessionId: string) => db()("odeme_payment").where({ session_id: sessionId }).first()
    const query = () => getContainer().resolve(ContainerRegistrationKeys.QUERY)

    beforeEach(async () => {
      await env.emulator.control("POST", "/_control/reset")
    })

    async function awaitingTransferOrder(price?: number) {
      const store = await seedStore(getContainer(), { price })
      const { cart, session, collectionId } = await pendingTransferCart(api, store)
      const res = await completeCart(api, store, cart.id)
      expect(res.data.type).toBe("order")
      const transfers: any[] = (await env.emulator.control("GET", "/_control/transfers")).result
      const uuid = transfers.find((t) => t.order_id === serviceOrderIdOf(session)).uuid as string
      return { store, cart, session, collectionId, uuid, order: res.data.order }
    }

    it("an API transfer of an amount with a third decimal: the order's transactions equal its capture, nothing owed", async () => {
      const { session, uuid, order } = await awaitingTransferOrder(5.005)
      // The service is asked for two decimals; Medusa keeps the cart's three.
      expect((await row(session.id)).amount).toBe("5.01")
      await env.emulator.control("POST", `/_control/transfers/${uuid}/settle`, { result: "successful" })
      await db()("odeme_payment").where({ session_id: session.id }).update({ next_check_at: db().fn.now() })
      expect((await pollTransfers(getContainer())).paid).toBe(1)
      const {
        data: [placed],
      } = await query().graph({
        entity: "order",
        fields: ["id", "summary", "transactions.amount", "payment_collections.payments.captures.amount"],
        filters: { id: order.id },
      })
      const sum = (xs: Array<{ amount: unknown }>) => xs.reduce((a, x) => MathBN.add(a, MathBN.convert(x.amount as never)), MathBN.convert(0))
      const captures = (placed as any).payment_collections.flatMap((c: any) => c.payments.flatMap((p: any) => p.captures))
      expect(captures).toHaveLength(1)
      expect(MathBN.eq(sum(captures), 5.005)).toBe(true)
      expect(MathBN.eq(sum((placed as any).transactions), sum(captures))).toBe(true)
      expect(MathBN.eq(MathBN.convert((placed as any).summary.pending_difference), 0)).toBe(true)
    })

    it("a store upgraded with an untagged awaiting transfer session: Medusa deletes it, and the order does not wait for good", async () => {
      const { store, session, collectionId, order } = await awaitingTransferOrder()
      // Written before the plugin tagged its session data: the session id alone, as an older version left it.
      await db()("payment_session")
        .where({ id: session.id })
        .update({ data: db().raw("data - 'session_tag'") })
      // A second tab picks the card: Medusa deletes the transfer's session, handing the plugin the data it stored.
      const replaced = await api.post(
        `/store/payment-collections/${collectionId}/payment-sessions`,
        { provider_id: CHECKOUT_PROVIDER },
        { ...store.headers, validateStatus: () => true }
      )
      expect(replaced.status).toBe(200)
      await waitFor(async () => (await row(session.id)).status === "canceled")
      // Past the transfer's deadline, with the card left alone as long: nothing will pay the order, which is canceled.
      const card = replaced.data.payment_collection.payment_sessions.find((s: any) => s.provider_id === CHECKOUT_PROVIDER)
      await db()("odeme_payment")
        .where({ session_id: card.id })
        .update({ updated_at: new Date(Date.now() - 49 * 3600_000), form_signed_at: null })
      await db()("odeme_payment")
        .where({ session_id: session.id })
        .update({ creation_started_at: new Date(Date.now() - 49 * 3600_000), next_check_at: db().fn.now() })
      expect((await pollTransfers(getContainer())).checked).toBe(1)
      const {
        data: [after],
      } = await query().graph({ entity: "order", fields: ["status"], filters: { id: order.id } })
      expect((after as { status: string }).status).toBe("canceled")
    })

    it("a delete naming a session without the tag, with data that is not what Medusa stored for it, cancels nothing", async () => {
      const { session } = await awaitingTransferOrder()
      const transfer = paymentProvider(getContainer(), TRANSFER_PROVIDER)
      await transfer.deletePayment({ data: { session_id: session.id } })
      expect((await row(session.id)).status).toBe("awaiting_transfer")
    })
  })
}
