/**
 * What the checkout scenarios assert about an order once the storefront shows
 * it confirmed, through the Admin API and the emulator's control API.
 */
import { eventually, paymentsOf, type AdminApi, type EmulatorControl } from "./api"

/** The emulator delivered its webhook(s) for the payment it knows by `orderId` and the plugin answered 200. */
export async function webhookDelivered(emulator: EmulatorControl, orderId: string) {
  return eventually(`webhook for ${orderId} delivered`, async () => {
    const { result: payments } = await emulator.get<{ result: any[] }>("/payments")
    const uuids = payments.filter((p) => p.order_id === orderId).map((p) => p.uuid)
    const { result: hooks } = await emulator.get<{ result: any[] }>("/webhooks")
    const mine = hooks.filter((h) => uuids.includes(h.payment_uuid))
    return mine.length > 0 && mine.every((h) => h.state === "delivered") && mine
  })
}

/** One payment of `provider`, captured once for the whole amount, before and after its webhook was handled. */
export async function assertCapturedOnce(admin: AdminApi, emulator: EmulatorControl, orderId: string, provider: string) {
  const order = await admin.order(orderId)
  const { payments } = paymentsOf(order)
  expect(payments).toHaveLength(1)
  expect(payments[0].provider_id).toBe(provider)
  await webhookDelivered(emulator, await admin.serviceOrderId(orderId, payments[0].payment_session_id))
  // Again after the webhook was handled: still one payment and one capture of the whole amount.
  const after = await admin.order(orderId)
  const again = paymentsOf(after)
  expect(after.payment_status).toBe("captured")
  expect(again.payments).toHaveLength(1)
  expect(again.captures).toHaveLength(1)
  expect(Number(again.captures[0].amount)).toBe(Number(after.total))
  return after
}
