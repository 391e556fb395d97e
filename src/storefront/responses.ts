import { z } from "zod"
import { zodMessage } from "./validation-message"

/**
 * The store routes' answers, parsed where a storefront receives them so a
 * plugin or proxy that answers something else fails loudly at the boundary
 * instead of rendering `undefined` to a customer.
 */

/** The plugin's one storefront word for a payment (return redirect and status route). */
export const storefrontStatusSchema = z.enum(["paid", "pending", "failed"])
export type OdemeStorefrontStatus = z.infer<typeof storefrontStatusSchema>

const nullableText = z.string().nullable()

/** GET /store/odeme/banks */
export const bankAccountSchema = z.object({
  bank_id: z.number().int(),
  bank_name: z.string(),
  account_holder: z.string(),
  iban: z.string(),
  iban_display: z.string(),
  description: z.string(),
  group_id: z.number().int(),
  group_name: z.string(),
})
export const banksResponseSchema = z.object({
  bank_groups: z.array(z.object({ id: z.number().int(), name: z.string(), accounts: z.array(bankAccountSchema) })),
})
export type OdemeBankAccount = z.infer<typeof bankAccountSchema>
export type OdemeBanksResponse = z.infer<typeof banksResponseSchema>

/** GET /store/odeme/payment-sessions/:id?cart_id= (or ?payment_collection_id=&order_id= for an order's balance) */
export const paymentSessionStatusSchema = z.object({
  id: z.string(),
  provider_id: z.string(),
  session_status: z.string(),
  state: z.string(),
  status: storefrontStatusSchema,
  amount: nullableText,
  currency: nullableText,
  flow: nullableText,
  bank_name: nullableText,
  account_holder: nullableText,
  iban: nullableText,
  iban_display: nullableText,
  tracking_no: nullableText,
  payer_name: nullableText,
  /** ISO time after which an unpaid API transfer expires; absent from servers before 0.2. */
  expires_at: nullableText.optional(),
  reference: z.string(),
  /** The short reference (`OD-7K3F9Q`) the shopper saw on the service's page and may quote; absent from older servers, null for a session from before references. */
  shopper_reference: nullableText.optional(),
  /** Both set when the session pays an order's balance (Admin's payment link); absent from servers before 0.2. */
  payment_collection_id: z.string().optional(),
  order_id: nullableText.optional(),
})
export const paymentSessionStatusResponseSchema = z.object({ payment_session: paymentSessionStatusSchema })
export type OdemePaymentSessionStatus = z.infer<typeof paymentSessionStatusSchema>
export type OdemePaymentSessionStatusResponse = z.infer<typeof paymentSessionStatusResponseSchema>

/** POST /store/odeme/payment-sessions/:id/form { cart_id } or { payment_collection_id, order_id } */
export const quickCheckoutFormSchema = z.object({
  action: z
    .string()
    .url()
    .refine((u) => /^https?:\/\//i.test(u), "the form action must be an http(s) address"),
  method: z.literal("POST"),
  fields: z.record(z.string(), z.string()),
})
export const quickCheckoutFormResponseSchema = z.object({ form: quickCheckoutFormSchema })
export type OdemeQuickCheckoutForm = z.infer<typeof quickCheckoutFormSchema>
export type OdemeQuickCheckoutFormResponse = z.infer<typeof quickCheckoutFormResponseSchema>

/** POST /store/odeme/payment-sessions/:id/authorize { payment_collection_id, order_id }: a balance's bank transfer started */
export const balanceAuthorizeResponseSchema = z.object({ payment_session: z.object({ id: z.string(), session_status: z.string() }) })
export type OdemeBalanceAuthorizeResponse = z.infer<typeof balanceAuthorizeResponseSchema>

/**
 * What a bank transfer's payment session data holds once the cart was
 * completed (the order-confirmed page reads it from the order's payment
 * collection). Before completion only the reference and amount are there.
 */
export const transferSessionDataSchema = z
  .object({
    reference: z.string(),
    shopper_reference: nullableText.optional(),
    amount: z.string(),
    currency: z.string(),
    state: z.string().optional(),
    bank_name: nullableText.optional(),
    account_holder: nullableText.optional(),
    iban: nullableText.optional(),
    iban_display: nullableText.optional(),
    tracking_no: nullableText.optional(),
    payer_name: nullableText.optional(),
    /** ISO time after which an unpaid transfer expires (`transfer.expiryHours` after it was created). */
    expires_at: nullableText.optional(),
  })
  .loose()
export type OdemeTransferSessionData = z.infer<typeof transferSessionDataSchema>

function parseWith<T>(schema: z.ZodType<T, unknown>, what: string, value: unknown): T {
  const result = schema.safeParse(value)
  if (result.success) return result.data
  throw new TypeError(`Unexpected answer from ${what}: ${zodMessage(result.error)}`)
}

export const parseBanksResponse = (json: unknown): OdemeBanksResponse => parseWith(banksResponseSchema, "GET /store/odeme/banks", json)

export const parsePaymentSessionStatusResponse = (json: unknown): OdemePaymentSessionStatusResponse =>
  parseWith(paymentSessionStatusResponseSchema, "GET /store/odeme/payment-sessions/:id", json)

export const parseQuickCheckoutFormResponse = (json: unknown): OdemeQuickCheckoutFormResponse =>
  parseWith(quickCheckoutFormResponseSchema, "POST /store/odeme/payment-sessions/:id/form", json)

export const parseBalanceAuthorizeResponse = (json: unknown): OdemeBalanceAuthorizeResponse =>
  parseWith(balanceAuthorizeResponseSchema, "POST /store/odeme/payment-sessions/:id/authorize", json)

/** Null when the session has no transfer details (yet). */
export function parseTransferSessionData(data: unknown): OdemeTransferSessionData | null {
  const result = transferSessionDataSchema.safeParse(data)
  return result.success ? result.data : null
}
