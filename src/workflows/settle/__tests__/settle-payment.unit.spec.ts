import { asValue } from "@medusajs/framework/awilix"
import { ContainerRegistrationKeys, createMedusaContainer, Modules } from "@medusajs/framework/utils"
import type { OdemePaymentRow } from "../../../modules/odeme/service"
import { ODEME_MODULE } from "../../../modules/odeme"
import { settlePaid } from "../settle-payment"

/**
 * The settle workflow's branches that need none of Medusa's own workflows, run on a container whose Query,
 * order module, locking and plugin module are fakes: each read the workflow takes is the next state of a
 * scenario. (The capture and the cart's completion run against Medusa in integration-tests/http.)
 */
type Read = { session?: boolean; captured?: boolean; inTransactions?: boolean; orderCanceled?: boolean; othersPaid?: boolean; order?: boolean }

function harness(reads: Read[], opts: { refunds?: string } = {}) {
  let n = 0
  // The state of the last session read: what the order module and the payment read answer with it.
  const current = () => reads[Math.min(Math.max(n - 1, 0), reads.length - 1)]
  const calls: string[] = []
  const payment = (r: Read) => ({
    id: "pay_1",
    payment_session_id: "payses_1",
    captured_at: r.captured ? new Date() : null,
    captures: r.captured ? [{ id: "cap_1", amount: 100 }] : [],
    refunds: [],
  })
  const query = {
    graph: async ({ entity }: { entity: string }) => {
      if (entity === "payment_session") {
        const r = reads[Math.min(n++, reads.length - 1)]
        if (r.session === false) return { data: [] }
        const other = { id: "pay_2", payment_session_id: "payses_2", captured_at: new Date(), captures: [{ id: "cap_2", amount: 100 }], refunds: [] }
        return {
          data: [
            {
              id: "payses_1",
              status: "authorized",
              amount: 100,
              payment_collection_id: "paycol_1",
              payment: r.captured ? payment(r) : null,
              payment_collection: {
                status: r.orderCanceled ? "canceled" : "authorized",
                amount: 100,
                cart: { id: "cart_1", order: r.order === false ? null : { id: "order_1", status: r.orderCanceled ? "canceled" : "pending" } },
                payments: [...(r.captured ? [payment(r)] : []), ...(r.othersPaid ? [other] : [])],
              },
            },
          ],
        }
      }
      if (entity === "payment") return { data: current().session === false ? [] : current().captured ? [payment(current())] : [] }
      throw new Error(`unexpected read of ${entity}`)
    },
  }
  const order = {
    listOrderTransactions: async (filter: { $or?: unknown }) => {
      // Medusa's add-transaction step asks which of its transactions exist already.
      if (filter.$or) return []
      return current().inTransactions ? [{ reference_id: "cap_1" }] : []
    },
    addOrderTransactions: async (rows: Array<{ reference_id: string; order_id: string }>) => {
      calls.push(...rows.map((r) => `transaction ${r.order_id} ${r.reference_id}`))
      return rows.map((r, i) => ({ ...r, id: `ordtrx_${i}` }))
    },
  }
  // What Medusa's capture workflow reaches: the payment module, its remote query, the event bus.
  const paymentModule = {
    capturePayment: async ({ payment_id }: { payment_id: string }) => {
      calls.push(`capture ${payment_id}`)
      return { id: payment_id, payment_collection_id: "paycol_1", currency_code: "try", captures: [{ id: "cap_1", amount: 100 }] }
    },
  }
  const remoteQuery = async () => [{ order: { id: "order_1" } }]
  const eventBus = { emit: async () => {}, releaseGroupedEvents: async () => {}, clearGroupedEvents: async () => {} }
  const held = new Map<string, string>()
  const locking = {
    execute: async (key: string, job: () => Promise<unknown>) => {
      calls.push(`execute ${key}`)
      return job()
    },
    acquire: async (keys: string | string[], { ownerId }: { ownerId?: string } = {}) => {
      for (const k of [keys].flat()) {
        if (held.has(k) && held.get(k) !== ownerId) throw new Error("locked")
        held.set(k, ownerId ?? "")
        calls.push(`acquire ${k}`)
      }
    },
    release: async (keys: string | string[]) => {
      for (const k of [keys].flat()) {
        held.delete(k)
        calls.push(`release ${k}`)
      }
      return true
    },
  }
  const row = { session_id: "payses_1", cart_id: null, currency: "TRY", amount: "100.00", metadata: null } as unknown as OdemePaymentRow
  const odeme = {
    odemeOptions: { refunds: opts.refunds ?? "reject" },
    linkCart: async (s: string, cart: string | null, orderId: string | null) => void calls.push(`link ${s} ${cart} ${orderId}`),
    noteMedusaRefusal: async (s: string, code: string) => void calls.push(`note ${s} ${code}`),
    getPayment: async () => row,
    recordRefund: async (r: { amount: string }) => void calls.push(`refund due ${r.amount}`),
  }
  const logger = { warn: () => {}, info: () => {}, error: () => {}, debug: () => {} }
  const container = createMedusaContainer()
  container.register({
    [ContainerRegistrationKeys.QUERY]: asValue(query),
    [ContainerRegistrationKeys.LOGGER]: asValue(logger),
    [Modules.ORDER]: asValue(order),
    [Modules.LOCKING]: asValue(locking),
    [Modules.PAYMENT]: asValue(paymentModule),
    [Modules.EVENT_BUS]: asValue(eventBus),
    [ContainerRegistrationKeys.REMOTE_QUERY]: asValue(remoteQuery),
    [ODEME_MODULE]: asValue(odeme),
  })
  return { container, row, calls, held, reads: () => n }
}

describe("settlePaymentWorkflow without Medusa's own workflows", () => {
  it("settled at the first read: links the cart and its order, under the settle lock", async () => {
    const h = harness([{ captured: true, inTransactions: true }])
    await expect(settlePaid(h.container, h.row)).resolves.toBeNull()
    expect(h.calls).toEqual(["execute odeme:session:payses_1", "link payses_1 cart_1 order_1", "link payses_1 cart_1 order_1"])
  })

  it("a session Medusa no longer has throws, so the next attempt sends the payment to review", async () => {
    const h = harness([{ session: false }])
    await expect(settlePaid(h.container, h.row)).rejects.toThrow("session payses_1 no longer exists in Medusa")
  })

  it("another payment holds the collection's money: already paid, nothing captured", async () => {
    const h = harness([{ othersPaid: true }])
    await expect(settlePaid(h.container, h.row)).resolves.toMatchObject({ kind: "already_paid" })
    expect(h.calls.filter((c) => c.startsWith("acquire"))).toEqual([])
  })

  it("a canceled order with nothing captured: order_canceled", async () => {
    const h = harness([{ orderCanceled: true }])
    await expect(settlePaid(h.container, h.row)).resolves.toMatchObject({ kind: "order_canceled", captured: false })
  })

  it("a canceled order whose payment was captured: what it holds is listed to pay back (refunds refused)", async () => {
    const h = harness([{ orderCanceled: true, captured: true }])
    await expect(settlePaid(h.container, h.row)).resolves.toMatchObject({ kind: "order_canceled", captured: true })
    expect(h.calls).toContain("refund due 100.00")
  })

  it("an existing payment found paid by others under the cart's lock: already paid, the lock given back", async () => {
    const h = harness([{ captured: true }, { captured: true, othersPaid: true }])
    await expect(settlePaid(h.container, h.row)).resolves.toMatchObject({ kind: "already_paid" })
    expect(h.calls.filter((c) => /acquire|release/.test(c))).toEqual(["acquire cart_1", "release cart_1"])
    expect(h.held.size).toBe(0)
    expect(h.reads()).toBe(2)
  })

  it("an existing payment found settled under the cart's lock: read again after it, settled", async () => {
    const h = harness([{ captured: true }, { captured: true, inTransactions: true }])
    await expect(settlePaid(h.container, h.row)).resolves.toBeNull()
    expect(h.calls.filter((c) => /acquire|release/.test(c))).toEqual(["acquire cart_1", "release cart_1"])
    expect(h.reads()).toBe(3)
  })

  it("an existing payment not on its order: Medusa's capture workflow, composed, adds it under the cart's lock", async () => {
    const h = harness([{ captured: true }, { captured: true }, { captured: true, inTransactions: true }])
    await expect(settlePaid(h.container, h.row)).resolves.toBeNull()
    expect(h.calls.filter((c) => /acquire|release|capture|transaction/.test(c))).toEqual([
      "acquire cart_1",
      "capture pay_1",
      "transaction order_1 cap_1",
      "release cart_1",
    ])
    expect(h.held.size).toBe(0)
  })

  it("captured but still not on its order after it: not yet, with the lock given back", async () => {
    const h = harness([{ captured: true }])
    await expect(settlePaid(h.container, h.row)).rejects.toThrow("session payses_1 is not captured and ordered yet")
    expect(h.held.size).toBe(0)
  })

  it("an order canceled while the lock was awaited is followed after it", async () => {
    const h = harness([{ captured: true }, { captured: true, inTransactions: true }, { captured: true, orderCanceled: true }])
    await expect(settlePaid(h.container, h.row)).resolves.toMatchObject({ kind: "order_canceled", captured: true })
    expect(h.held.size).toBe(0)
  })
})
