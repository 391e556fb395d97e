import { z } from "@medusajs/framework/zod"

/**
 * The contract run's own reading of the spec's answers (§2.4, §2.5, §4.3–§4.8),
 * independent of the client's schemas: the run judges the service (and so the
 * client's assumptions) against the spec, not against the client itself.
 * Types are the spec's; fields it does not list are allowed (the shape diff
 * reports them). Nothing is coerced: a `"150.00"` where the spec says number
 * is a finding, not something to smooth over.
 */

const int = z.number().int()

/** §2.3 / §4.3 */
export const BankGroupListAnswer = z.looseObject({
  result: z.array(z.looseObject({ id: int, name: z.string() })),
})

/** §2.4 / §4.4 */
export const BankListAnswer = z.looseObject({
  result: z.array(
    z.looseObject({
      bta_id: int,
      bta_name: z.string(),
      bta_fullname: z.string(),
      bta_iban: z.string(),
      bta_description: z.string(),
    })
  ),
})

/**
 * §4.5 (success) and §2.5: `payment_id` is in UUID format: 8-4-4-4-12 hex digits
 * (`z.guid()`); the spec names no UUID version or variant, so none is required.
 */
export const CreateTransferAnswer = z.looseObject({
  message: z.string(),
  payment_id: z.guid(),
  order_id: z.string(),
})

/** §2.5 / §3.1 */
export const TransferRecordAnswer = z.looseObject({
  result: z.looseObject({
    br_tracking_no: z.string(),
    br_name: z.string(),
    br_price: z.number(),
    br_currency: z.string(),
    br_bank_name: z.string(),
    br_iban: z.string(),
    sale_status: z.union([z.literal(0), z.literal(1), z.literal(2)]),
    sale_date: int,
  }),
})

/** §4.8 response table; `mode` is "informational only", so any text (the scenario checks it is sandbox-like). */
export const VerifyAnswer = z.looseObject({
  success: z.boolean(),
  is_valid: z.boolean(),
  payment_confirmed: z.boolean(),
  official_status: z.string(),
  status_match: z.boolean(),
  hash_match: z.boolean(),
  order_id: z.string(),
  uuid: z.string(),
  mode: z.string(),
})

/** `150`, `"150"` and `"150.00"` are the same amount; compared as decimal text, never as floats. */
export function sameAmount(actual: unknown, expected: string): boolean {
  const text = typeof actual === "number" && Number.isFinite(actual) ? String(actual) : actual
  if (typeof text !== "string" || !/^\d+(\.\d+)?$/.test(text.trim())) return false
  const strip = (s: string) =>
    s
      .trim()
      .replace(/^0+(?=\d)/, "")
      .replace(/(\.\d*?)0+$/, "$1")
      .replace(/\.$/, "")
  return strip(text) === strip(expected)
}
