import { z } from "@medusajs/framework/zod"
import { serviceCurrency } from "./amount"

/**
 * Response schemas for the service API (spec §2, §4). Unknown keys are kept
 * (`.loose()`), numbers that may arrive as strings are coerced, and
 * booleans accept only true/false, 1/0, "true"/"false", "1"/"0".
 */

const INTEGER_RE = /^[+-]?\d+$/
const DECIMAL_RE = /^[+-]?(?:\d+\.?\d*|\.\d+)$/

/** Integer that may arrive as a string of digits. */
export const zIntLike = z.preprocess((v) => (typeof v === "string" && INTEGER_RE.test(v.trim()) ? Number(v.trim()) : v), z.number().int())

/** Finite number that may arrive as a decimal string ("200.00"). */
export const zNumberLike = z.preprocess((v) => (typeof v === "string" && DECIMAL_RE.test(v.trim()) ? Number(v.trim()) : v), z.number().finite())

/** String that may arrive as a number (ids, tracking numbers). */
export const zStringLike = z.preprocess((v) => (typeof v === "number" && Number.isFinite(v) ? String(v) : v), z.string())

/**
 * Strict boolean: true/false, 1/0, "true"/"false", "1"/"0". Anything else
 * (e.g. "yes", "False", 2) is rejected. Unlike z.coerce.boolean, "false" is false.
 */
export const zBoolLike = z.preprocess((v) => {
  if (v === 1 || v === "1" || v === "true") return true
  if (v === 0 || v === "0" || v === "false") return false
  return v
}, z.boolean())

/** Optional field that also accepts null (mapped to undefined). */
function optional<T extends z.ZodType>(schema: T) {
  return z.preprocess((v) => (v === null ? undefined : v), schema.optional())
}

/** List that may arrive as null when empty. */
function list<T extends z.ZodType>(item: T) {
  return z.preprocess((v) => (v === null ? [] : v), z.array(item))
}

export const TransferSaleStatus = {
  PENDING: 0,
  APPROVED: 1,
  FAILED: 2,
} as const
export type TransferSaleStatusValue = (typeof TransferSaleStatus)[keyof typeof TransferSaleStatus]

export const zSaleStatus = z.preprocess(
  (v) => (typeof v === "string" && INTEGER_RE.test(v.trim()) ? Number(v.trim()) : v),
  z.union([z.literal(0), z.literal(1), z.literal(2)])
)

// §2.3
export const BankGroupSchema = z
  .object({
    id: zIntLike,
    name: z.string(),
  })
  .loose()
export type BankGroup = z.infer<typeof BankGroupSchema>

// §2.4
export const BankAccountSchema = z
  .object({
    bta_id: zIntLike,
    bta_name: z.string(),
    bta_fullname: z.string(),
    bta_iban: z.string(),
    bta_description: z.preprocess((v) => (v === null ? undefined : v), z.string().default("")),
  })
  .loose()
export type BankAccount = z.infer<typeof BankAccountSchema>

// §4.3 / §4.4 responses
export const BankGroupListResponseSchema = z.object({ result: list(BankGroupSchema) }).loose()
export type BankGroupListResponse = z.infer<typeof BankGroupListResponseSchema>

export const BankListResponseSchema = z.object({ result: list(BankAccountSchema) }).loose()
export type BankListResponse = z.infer<typeof BankListResponseSchema>

// §4.5 response
export const CreateBankTransferResultSchema = z
  .object({
    message: z.string(),
    payment_id: z.guid(),
    order_id: zStringLike,
  })
  .loose()
export type CreateBankTransferResult = z.infer<typeof CreateBankTransferResultSchema>

// §2.5
export const TransferRecordSchema = z
  .object({
    br_tracking_no: zStringLike,
    br_name: z.string(),
    br_price: zNumberLike,
    br_currency: z.string().transform(serviceCurrency),
    br_bank_name: z.string(),
    br_iban: z.string(),
    sale_status: zSaleStatus,
    sale_date: zIntLike,
  })
  .loose()
export type TransferRecord = z.infer<typeof TransferRecordSchema>

export const TransferRecordResponseSchema = z.object({ result: TransferRecordSchema }).loose()
export type TransferRecordResponse = z.infer<typeof TransferRecordResponseSchema>

// §2.7 / §4.7
export const CardPaymentRecordSchema = z
  .object({
    redirect_url: z.string().url(),
    uuid: optional(zStringLike),
    order_id: optional(zStringLike),
    transaction_id: optional(zStringLike),
    status: optional(zStringLike),
  })
  .loose()
export type CardPaymentRecord = z.infer<typeof CardPaymentRecordSchema>

// §4.8 response
export const VerifyResultSchema = z
  .object({
    // The decision field (§6.2 rule 3) is the spec's boolean and nothing else: a 1, "1" or "true"
    // is an answer this client does not understand, so nothing is paid on it (docs/decisions.md).
    is_valid: z.boolean(),
    official_status: z.string(),
    success: optional(zBoolLike),
    payment_confirmed: optional(zBoolLike),
    status_match: optional(zBoolLike),
    hash_match: optional(zBoolLike),
    order_id: optional(zStringLike),
    uuid: optional(zStringLike),
    mode: optional(z.string()),
  })
  .loose()
export type VerifyResult = z.infer<typeof VerifyResultSchema>

/** §4.9: shapes not documented, so any JSON object is accepted. */
export const LooseObjectSchema = z.object({}).loose()
export type LooseObject = z.infer<typeof LooseObjectSchema>

/** True only when the verify response says the payment is officially complete (spec §6.2 rule 3). */
export function isVerifiedSuccessful(result: Pick<VerifyResult, "is_valid" | "official_status">): boolean {
  return result.is_valid === true && result.official_status === "successful"
}
