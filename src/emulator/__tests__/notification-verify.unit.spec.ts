import { api, emulatorWithReceiver, openQuickCheckout, postForm, waitFor } from "./helpers"

/**
 * §4.8: verify receives a notification's own fields, `status` as it arrived
 * (§6.1 redirect: success/error; §6.2 webhook: successful/failed), and judges
 * them against the notification the emulator really issued.
 */
describe("verify judges each notification as it was issued", () => {
  const env = emulatorWithReceiver()

  const verify = (b: Record<string, string>) => api(env.emu, "POST", "/api/sale/webhook/verify", b).then((r) => r.json)

  /** A Quick Checkout card payment finished on its page: one redirect and one webhook issued. */
  async function finished(outcome: "approve" | "reject", orderId: string) {
    const { uuid } = await openQuickCheckout(env.emu, { order_id: orderId })
    const done = await postForm(`${env.emu.url}/checkout/session/${uuid}/complete`, { outcome })
    const redirect = Object.fromEntries(new URL(done.location!).searchParams)
    await waitFor(() => env.receiver.received.length === 1)
    return { uuid, redirect, webhook: env.receiver.received[0].body }
  }

  it.each([
    ["approve", "success", "successful"],
    ["reject", "error", "failed"],
  ] as const)("after %s: the redirect (%s) and the webhook (%s) each verify with their own hash", async (outcome, redirectWord, webhookWord) => {
    const order = `order_v_${outcome}`
    const { uuid, redirect, webhook } = await finished(outcome, order)
    expect(redirect.status).toBe(redirectWord)
    expect(webhook.status).toBe(webhookWord)
    expect(redirect.hash).not.toBe(webhook.hash)
    const official = webhookWord

    const fromRedirect = await verify({ order_id: order, uuid, status: redirect.status, hash: redirect.hash })
    expect(fromRedirect).toMatchObject({ is_valid: true, hash_match: true, status_match: true, official_status: official })
    const fromWebhook = await verify({ order_id: order, uuid, status: webhook.status, hash: webhook.hash })
    expect(fromWebhook).toMatchObject({ is_valid: true, hash_match: true, status_match: true, official_status: official })

    // A status word carried with another notification's hash matches neither.
    const redirectWordWebhookHash = await verify({ order_id: order, uuid, status: redirectWord, hash: webhook.hash })
    expect(redirectWordWebhookHash).toMatchObject({ is_valid: false, hash_match: false, status_match: false, official_status: official })
    const webhookWordRedirectHash = await verify({ order_id: order, uuid, status: webhookWord, hash: redirect.hash })
    expect(webhookWordRedirectHash).toMatchObject({ is_valid: false, hash_match: false, status_match: false, official_status: official })
  })

  it("a hash it never issued: hash_match false; status_match only for a status this payment's notifications carried", async () => {
    const { uuid } = await finished("approve", "order_v_forged")
    const forged = "ab".repeat(32)
    for (const status of ["successful", "success"]) {
      expect(await verify({ order_id: "order_v_forged", uuid, status, hash: forged })).toMatchObject({
        is_valid: false,
        hash_match: false,
        status_match: true,
      })
    }
    for (const status of ["failed", "error", "SUCCESSFUL", "constructor", "__proto__"]) {
      expect(await verify({ order_id: "order_v_forged", uuid, status, hash: forged })).toMatchObject({
        is_valid: false,
        hash_match: false,
        status_match: false,
        official_status: "successful",
      })
    }
  })

  it("a redirect never sent (no URL for it) has no hash to match", async () => {
    const created = await api(env.emu, "POST", "/api/pay/bank_transfer", {
      bank_id: 11,
      amount: "120.00",
      currency: "TRY",
      order_id: "order_v_api",
      customer_name: "Ali Veli",
      client_ip: "203.0.113.5",
    })
    await waitFor(() => env.receiver.received.length === 1)
    const hook = env.receiver.received[0].body
    const uuid = created.json.payment_id
    expect(await verify({ order_id: "order_v_api", uuid, status: "successful", hash: hook.hash })).toMatchObject({ is_valid: true })
    expect(await verify({ order_id: "order_v_api", uuid, status: "success", hash: hook.hash })).toMatchObject({
      is_valid: false,
      hash_match: false,
      status_match: false,
    })
  })

  it("a pending payment has issued nothing: nothing matches", async () => {
    const { uuid } = await openQuickCheckout(env.emu, { order_id: "order_v_pending" })
    const v = await verify({ order_id: "order_v_pending", uuid, status: "successful", hash: "0".repeat(64) })
    expect(v).toMatchObject({ is_valid: false, hash_match: false, status_match: false, payment_confirmed: false, official_status: "pending" })
  })
})
