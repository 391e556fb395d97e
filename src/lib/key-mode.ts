import type { OdemeClient } from "../client"

/**
 * The key picks the service's environment (spec §7: "the key type selects the
 * environment"), not the plugin's `mode` option. A live store holding a
 * sandbox key shows customers the sandbox's pages, and its transfers are
 * "successful" at creation: money that never moved would pay real orders.
 * Nothing in a Quick Checkout answer says so (its verify `mode` is
 * `quick_checkout_fallback` either way), so the key itself is asked.
 */

/** A harmless question whose answer names the key's mode (spec §4.8: `mode` is `sandbox` for sandbox keys). */
export const MODE_PROBE = {
  order_id: "odeme-connection-test",
  uuid: "00000000-0000-4000-8000-000000000000",
  status: "failed",
  hash: "connection-test",
} as const

export type KeyMode = "sandbox" | "live"

/** The key's mode as the verify answer names it; null when it does not say. */
export function keyModeOf(answerMode: unknown): KeyMode | null {
  if (typeof answerMode !== "string" || !answerMode.trim()) return null
  return answerMode.trim().toLowerCase() === "sandbox" ? "sandbox" : "live"
}

/** A process's key does not change (it is an option): its mode is asked once per client. */
const known = new WeakMap<object, KeyMode | null>()

/**
 * The configured key's mode, asked of the service once per client; null when
 * the answer names none (the spec calls `mode` informational). A failed
 * question is not remembered: the next caller asks again.
 */
export async function keyMode(client: Pick<OdemeClient, "verifyNotification">): Promise<KeyMode | null> {
  if (known.has(client)) return known.get(client)!
  const mode = keyModeOf((await client.verifyNotification({ ...MODE_PROBE })).mode)
  known.set(client, mode)
  return mode
}

/** A store set to live whose key is a sandbox key: nothing it is told was paid moved money. */
export async function sandboxKeyInLiveStore(odeme: {
  odemeOptions: { mode: string }
  client: Pick<OdemeClient, "verifyNotification">
}): Promise<boolean> {
  return odeme.odemeOptions.mode === "live" && (await keyMode(odeme.client)) === "sandbox"
}
