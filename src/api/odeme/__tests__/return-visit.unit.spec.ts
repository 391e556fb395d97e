import type { OdemeOptions } from "../../../lib/options"
import type OdemeModuleService from "../../../modules/odeme/service"
import type { OdemePaymentRow } from "../../../modules/odeme/service"
import { recordReturn, storefrontTarget } from "../return/return-visit"

const SESSION = "payses_0123456789"

/** A module whose session has `storedReturns` returns stored of each kind (with the proof, and without: `unproven`). */
function moduleThatStores(known = true, storedReturns = 0, unproven = storedReturns) {
  const storeNotification = jest.fn(async (input: { state: string }) =>
    known ? { row: { id: "odntf_1", state: input.state, attempts: 0 }, duplicate: false } : null
  )
  const countReturns = jest.fn(async (_session: string, proven: boolean, atMost: number) => Math.min(proven ? storedReturns : unproven, atMost))
  return { odeme: { storeNotification, countReturns } as unknown as OdemeModuleService, storeNotification }
}

describe("recordReturn", () => {
  it("returns without the proof filling their bound leave the customer's own its place", async () => {
    const { odeme, storeNotification } = moduleThatStores(true, 0, 50)
    const q = { status: "success", uuid: "u-1", hash: "h-1" }
    expect(await recordReturn(odeme, SESSION, "success", q, false)).toEqual({ id: null, verifiable: false })
    expect(storeNotification).not.toHaveBeenCalled()
    expect(await recordReturn(odeme, SESSION, "success", q, true)).toEqual({ id: "odntf_1", verifiable: true })
    expect(storeNotification).toHaveBeenCalledWith(expect.objectContaining({ trusted: true }))
  })

  it("stores at most 50 redirects of one session: the 51st visit is sent on, not stored or verified", async () => {
    const { odeme, storeNotification } = moduleThatStores(true, 50)
    expect(await recordReturn(odeme, SESSION, "success", { status: "success", uuid: "u-1", hash: "h-1" })).toEqual({ id: null, verifiable: false })
    expect(storeNotification).not.toHaveBeenCalled()
    const below = moduleThatStores(true, 49)
    expect(await recordReturn(below.odeme, SESSION, "success", { status: "success", uuid: "u-1", hash: "h-1" })).toEqual({
      id: "odntf_1",
      verifiable: true,
    })
  })

  it.each([
    ["success", "successful"],
    ["error", "failed"],
    [" SUCCESSFUL ", "successful"],
  ])("a transfer confirmation with status %j: the column says %j, the payload keeps what arrived, and it is verified", async (arrived, column) => {
    const { odeme, storeNotification } = moduleThatStores()
    const q = { status: arrived, uuid: "u-1", hash: "h-1", type: "bank_transfer", amount: "250.00" }
    expect(await recordReturn(odeme, SESSION, "success", q)).toEqual({ id: "odntf_1", verifiable: true })
    expect(storeNotification).toHaveBeenCalledWith(
      expect.objectContaining({
        source: "return",
        session_id: SESSION,
        service_uuid: "u-1",
        status: column,
        payload: {
          ...q,
          order_id: SESSION,
          outcome: "success",
          arrived: { order_id: SESSION, uuid: q.uuid, status: q.status, hash: q.hash },
        },
        // The customer's own (the session's proof): verified ahead of copies nothing proved.
        trusted: true,
        state: "received",
        outcome: null,
      })
    )
  })

  it("a card redirect (no uuid) is navigation: recorded and done", async () => {
    const { odeme, storeNotification } = moduleThatStores()
    expect(await recordReturn(odeme, SESSION, "cancel", { status: "error", message: "3D failed" })).toEqual({ id: "odntf_1", verifiable: false })
    expect(storeNotification).toHaveBeenCalledWith(expect.objectContaining({ status: "failed", state: "done", outcome: "navigation_only" }))
  })

  it("without a status of its own there is nothing to send verify: navigation, the column taken from the address", async () => {
    const { odeme, storeNotification } = moduleThatStores()
    expect(await recordReturn(odeme, SESSION, "success", { uuid: "u-1", hash: "h-1" })).toEqual({ id: "odntf_1", verifiable: false })
    const stored = storeNotification.mock.calls[0][0] as unknown as { status: string; payload: Record<string, unknown> }
    expect(stored.status).toBe("successful")
    expect(stored.payload).not.toHaveProperty("status")
  })

  it("an unreadable status is kept in the payload, not in the column, and is not verified", async () => {
    const { odeme, storeNotification } = moduleThatStores()
    expect(await recordReturn(odeme, SESSION, "success", { status: "maybe", uuid: "u-1", hash: "h-1" })).toEqual({ id: "odntf_1", verifiable: false })
    expect(storeNotification).toHaveBeenCalledWith(expect.objectContaining({ status: null, payload: expect.objectContaining({ status: "maybe" }) }))
  })

  it("the same parameters are one row; different ones are rows of their own", async () => {
    const { odeme, storeNotification } = moduleThatStores()
    await recordReturn(odeme, SESSION, "success", { status: "success", uuid: "u-1", hash: "h-1" })
    await recordReturn(odeme, SESSION, "success", { hash: "h-1", uuid: "u-1", status: "success" })
    await recordReturn(odeme, SESSION, "success", { status: "success", uuid: "u-1", hash: "h-2" })
    const keys = storeNotification.mock.calls.map((c) => (c[0] as unknown as { dedupe_key: string }).dedupe_key)
    expect(keys[0]).toBe(keys[1])
    expect(keys[2]).not.toBe(keys[0])
  })

  it("an unknown session stores nothing", async () => {
    expect(await recordReturn(moduleThatStores(false).odeme, SESSION, "success", {})).toBeNull()
  })
})

describe("storefrontTarget", () => {
  const options = {
    storefrontUrl: "https://shop.example",
    storefrontOrigins: ["https://m.shop.example"],
    checkout: { returnPath: "/checkout/return" },
  } as unknown as OdemeOptions
  const payment = (status: string, return_url?: string) =>
    ({ session_id: SESSION, status, metadata: return_url ? { return_url } : null }) as unknown as OdemePaymentRow

  it("back through the cancel address with nothing verified: returned=cancel; anything the plugin knows says itself", () => {
    expect(new URL(storefrontTarget(options, payment("pending"), null, null, "cancel")).searchParams.get("returned")).toBe("cancel")
    expect(new URL(storefrontTarget(options, payment("pending"), null, null, "success")).searchParams.get("returned")).toBeNull()
    expect(new URL(storefrontTarget(options, payment("failed"), "declined", null, "cancel")).searchParams.get("returned")).toBeNull()
  })

  it("the session's return_url on a storefront origin, with what the plugin knows and never a cart", () => {
    const target = new URL(storefrontTarget(options, payment("paid", "https://m.shop.example/tr/done?x=1"), null))
    expect(target.origin + target.pathname).toBe("https://m.shop.example/tr/done")
    expect(Object.fromEntries(target.searchParams)).toEqual({ x: "1", status: "paid", session_id: SESSION })
  })

  it.each(["https://evil.example/steal", "javascript:alert(1)", "not a url"])("the default page instead of %j", (wanted) => {
    const target = new URL(storefrontTarget(options, payment("failed", wanted), "declined"))
    expect(target.origin + target.pathname).toBe("https://shop.example/checkout/return")
    expect(Object.fromEntries(target.searchParams)).toEqual({ status: "failed", session_id: SESSION, reason: "declined" })
  })

  it("an order's balance goes back to the payment-link page Admin copies, not to the checkout's return page", () => {
    const balance = { collectionId: "pay_col_1", orderId: "order_1" }
    const target = new URL(storefrontTarget(options, payment("paid"), null, balance))
    expect(target.origin + target.pathname).toBe("https://shop.example/payment-collection/pay_col_1")
    expect(Object.fromEntries(target.searchParams)).toEqual({ order_id: "order_1", status: "paid", session_id: SESSION })
    // A return_url the storefront gave still wins (a starter with a country prefix, say).
    expect(
      new URL(storefrontTarget(options, payment("paid", "https://m.shop.example/tr/payment-collection/pay_col_1"), null, balance)).pathname
    ).toBe("/tr/payment-collection/pay_col_1")
  })
})
