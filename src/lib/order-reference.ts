import { randomInt } from "node:crypto"

/**
 * The short reference a shopper reads on the service's page and can quote to
 * the store (`OD-7K3F9Q`): the store's prefix and a code in Crockford's
 * base32, which has no I, L, O or U, so a code read aloud or typed from a
 * screenshot is not misread. It is what the plugin sends the service as
 * `order_id`; the plugin's payment row maps it back to exactly one session.
 */
export const REFERENCE_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
export const REFERENCE_CODE_LENGTH = 6
export const DEFAULT_REFERENCE_PREFIX = "OD"
/** What `referencePrefix` may be: capitals and digits, short enough that the whole reference stays short. */
export const REFERENCE_PREFIX_PATTERN = /^[A-Z0-9]{1,6}$/

/** A new reference under `prefix`; `pick` draws one index below 32 (a CSPRNG by default; tests pass their own). */
export function newOrderReference(prefix: string, pick: (size: number) => number = randomInt): string {
  let code = ""
  for (let i = 0; i < REFERENCE_CODE_LENGTH; i++) code += REFERENCE_ALPHABET[pick(REFERENCE_ALPHABET.length)]
  return `${prefix}-${code}`
}

/** Whether `text` has the shape of a reference (any prefix): a session id (`payses_…`) never has it. */
export function isOrderReference(text: string): boolean {
  return new RegExp(`^[A-Z0-9]{1,6}-[${REFERENCE_ALPHABET}]{${REFERENCE_CODE_LENGTH}}$`).test(text)
}

/**
 * What the plugin sends the service as `order_id` for a payment: its reference, or for a session recorded
 * before references existed (null), the session id it has always sent, so that session's notifications match.
 */
export function serviceOrderId(row: { session_id: string; reference?: string | null }): string {
  return row.reference ?? row.session_id
}
