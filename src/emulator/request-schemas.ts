import { z } from "zod"
import { isPositive, parseLooseAmount } from "./money"

/** Bodies the emulator accepts on `/api` (§4.5, §4.7, §4.8, §4.9), with readable field errors. */

const idString = z.union([z.string().trim().min(1, "must not be empty"), z.number().transform((n) => String(n))])

/** A JSON number or decimal string, kept as the two-decimal text (never a float). */
const amountField = z.union([z.number(), z.string()]).transform((v, c) => {
  const a = parseLooseAmount(v)
  if (a === undefined || !isPositive(a)) {
    c.addIssue({ code: "custom", message: "must be a decimal amount greater than 0" })
    return z.NEVER
  }
  return a
})

const currencyOf = (list: string[]) =>
  z
    .string()
    .transform((s) => s.trim().toUpperCase())
    .refine((s) => list.includes(s), { message: `must be one of ${list.join(", ")}` })

export const createTransferSchema = z.object({
  bank_id: z.union([z.number().int(), z.string().regex(/^\d+$/, "must be an integer").transform(Number)]),
  amount: amountField,
  currency: currencyOf(["TRY", "USD", "EUR"]),
  order_id: idString,
  customer_name: z.string().trim().min(1, "must not be empty"),
  client_ip: z.string().trim().min(1, "must not be empty"),
  customer_email: z.string().optional(),
  customer_phone: z.string().optional(),
  sandbox_result: z.enum(["successful", "pending", "failed"]).optional(),
})

export const creditCardSchema = z.object({
  amount: amountField,
  currency: currencyOf(["TRY", "USD", "EUR", "GBP"]).optional(),
  order_id: idString,
  description: z.string().optional(),
  success_url: z.url().optional(),
  cancel_url: z.url().optional(),
})

/** §4.8: the notification's own fields, `status` exactly as it arrived. */
export const verifySchema = z.object({
  order_id: idString,
  uuid: z.string().min(1, "must not be empty"),
  status: z.string().min(1, "must not be empty"),
  hash: z.string().min(1, "must not be empty"),
})

export const saleInfoSchema = z.object({
  order_id: idString.optional(),
  uuid: z.string().optional(),
  transaction_id: idString.optional(),
})
