import { verifyNotification } from "../verify"

// §4.8: the four fields of the notification, checked before anything is sent.
describe("verifyNotification input", () => {
  const good = { order_id: "payses_1", uuid: "u-1", status: "successful", hash: "h" }
  const transport = () => {
    const calls: unknown[][] = []
    return { calls, t: { call: async (...args: unknown[]) => (calls.push(args), { is_valid: true, official_status: "successful" }) } as never }
  }

  it("sends exactly order_id, uuid, status and hash to the webhook verify endpoint", async () => {
    const { calls, t } = transport()
    await verifyNotification(t, { ...good, extra: "x" } as never)
    expect(calls).toHaveLength(1)
    const [ep, path, , body] = calls[0] as [{ name: string }, string, unknown, unknown]
    expect(ep.name).toBe("verifyNotification")
    expect(path).toBe("/api/sale/webhook/verify")
    expect(body).toEqual(good)
  })

  it.each(["order_id", "uuid", "status", "hash"])("refuses a missing or blank %s without sending", async (field) => {
    for (const value of [undefined, "", "  ", null]) {
      const { calls, t } = transport()
      await expect(verifyNotification(t, { ...good, [field]: value } as never)).rejects.toThrow(`${field} is required`)
      expect(calls).toHaveLength(0)
    }
  })

  it("refuses no input at all", async () => {
    const { t } = transport()
    await expect(verifyNotification(t, undefined as never)).rejects.toThrow("verifyNotification input is required")
    await expect(verifyNotification(t, "x" as never)).rejects.toThrow("verifyNotification input is required")
  })
})
