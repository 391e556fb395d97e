import { S, type Shape } from "./shape-diff"

/**
 * What the emulator (src/emulator) answers, as shapes. The contract run
 * compares the real sandbox with these: every difference is a place where
 * the emulator, and so every test built on it, may not match the service.
 * `contract.unit.spec.ts` checks that the emulator itself still answers
 * exactly these shapes, so this file cannot drift from the emulator silently.
 */

/** §4.3 */
export const BANK_GROUP_LIST: Shape = S.object({
  result: S.array(S.object({ id: S.number, name: S.string })),
})

/** §4.4 */
export const BANK_LIST: Shape = S.object({
  result: S.array(
    S.object({
      bta_id: S.number,
      bta_name: S.string,
      bta_fullname: S.string,
      bta_iban: S.string,
      bta_description: S.string,
    })
  ),
})

/** §4.5 */
export const CREATE_TRANSFER: Shape = S.object({
  message: S.string,
  payment_id: S.string,
  order_id: S.string,
})

/** §2.5 / §4.6 (uuid and control endpoints) */
export const TRANSFER_RECORD: Shape = S.object({
  result: S.object({
    br_tracking_no: S.string,
    br_name: S.string,
    br_price: S.number,
    br_currency: S.string,
    br_bank_name: S.string,
    br_iban: S.string,
    sale_status: S.number,
    sale_date: S.number,
  }),
})

/** §4.8, for a payment that exists and an order_id that matches it. */
export const VERIFY_RESULT: Shape = S.object({
  success: S.boolean,
  is_valid: S.boolean,
  payment_confirmed: S.boolean,
  official_status: S.string,
  status_match: S.boolean,
  hash_match: S.boolean,
  order_id: S.string,
  uuid: S.string,
  mode: S.string,
})

/** Key values the emulator answers (§3.1). */
export const SALE_STATUS = { successful: 1, pending: 0, failed: 2 } as const

/** `message` of a successful create (§4.5). */
export const CREATE_MESSAGE = "successful"

/** `mode` that verify answers for a sandbox bank transfer; anything not sandbox-like means a live key. */
export const VERIFY_SANDBOX_MODE = "sandbox"
