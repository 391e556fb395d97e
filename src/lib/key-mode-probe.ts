import type { KeyMode } from "../modules/odeme/models/states"
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

export type { KeyMode }

/**
 * The key's mode as the verify answer names it; null when it does not say.
 * Of the three values §4.8 lists, `sandbox` names the sandbox and `api_cc_pos`
 * (the live card POS) the live service; `quick_checkout_fallback` names the
 * flow, which Quick Checkout answers in either (§4.8), so it says nothing of the key.
 */
export function keyModeOf(answerMode: unknown): KeyMode | null {
  const mode = typeof answerMode === "string" ? answerMode.trim().toLowerCase() : ""
  return mode === "sandbox" ? "sandbox" : mode === "api_cc_pos" ? "live" : null
}
