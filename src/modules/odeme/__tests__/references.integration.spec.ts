import { odemeModuleTests } from "./module-runner"
import type { NotificationInput } from "../types"

jest.setTimeout(60_000)

/**
 * Issue 43: each payment's short reference is what the service is sent as `order_id`; whatever comes back
 * under it (a webhook, a return, Medusa's generic hook) finds exactly one session, and a session recorded
 * before references keeps being found by its id.
 */
odemeModuleTests(({ service }) => {
  const initiated = (session_id: string) =>
    service.recordInitiated({ session_id, provider: "odeme-checkout", flow: null, mode: "sandbox", amount: "5.00", currency: "TRY" })
  const webhook = (order_id: string, key: string): NotificationInput => ({
    source: "webhook",
    dedupe_key: key,
    session_id: order_id,
    service_uuid: `u-${key}`,
    status: "successful",
    type: null,
    payload: { hash: "h", arrived: { order_id } },
    raw_body: null,
  })

  it("a session's first record draws a reference, kept when the session is initiated again", async () => {
    const first = await initiated("payses_ref1")
    expect(first.reference).toMatch(/^OD-[0-9A-HJKMNP-TV-Z]{6}$/)
    expect((await initiated("payses_ref1")).reference).toBe(first.reference)
    expect((await initiated("payses_ref2")).reference).not.toBe(first.reference)
  })

  it("a notification naming the reference is stored under its session; one naming nothing of this store's is a stray", async () => {
    const { reference } = await initiated("payses_ref5")
    expect(await service.sessionOfOrderId(reference!)).toBe("payses_ref5")
    expect(await service.sessionOfOrderId("payses_ref5")).toBe("payses_ref5")
    expect(await service.sessionOfOrderId("OD-NONE00")).toBeNull()
    const stored = await service.storeNotification(webhook(reference!, "key:ref5"))
    expect(stored).toEqual(expect.objectContaining({ duplicate: false }))
    expect((await service.getNotification(stored!.row.id))!.session_id).toBe("payses_ref5")
    expect(await service.countOpenWebhooks("payses_ref5", 10)).toBe(1)
    expect(await service.storeNotification(webhook("OD-NONE00", "key:none"))).toBeNull()
    expect((await service.strayNotifications()).recent).toEqual(expect.arrayContaining([expect.objectContaining({ order_id: "OD-NONE00" })]))
  })

  it("a session recorded before references (none) is still found by its session id", async () => {
    await service.createOdemePayments({ session_id: "payses_before", provider: "odeme-checkout", mode: "sandbox", amount: "5.00", currency: "TRY" })
    expect((await service.getPayment("payses_before"))!.reference).toBeNull()
    expect(await service.sessionOfOrderId("payses_before")).toBe("payses_before")
    const stored = await service.storeNotification(webhook("payses_before", "key:before"))
    expect((await service.getNotification(stored!.row.id))!.session_id).toBe("payses_before")
  })
})
