import { MedusaError } from "@medusajs/framework/utils"
import { z } from "@medusajs/framework/zod"
import { odemeError } from "../../../lib/medusa-errors"
import { zodMessage } from "../../../storefront/validation-message"

/**
 * What a storefront may put in an `odeme-transfer` session's data. `client_ip`
 * is written by the plugin's middleware from the customer's request, never
 * taken from the body. Other keys are dropped: the session data is copied onto
 * the payment, which Admin reads.
 */
export const transferSessionDataSchema = z.object({
  session_id: z.string().min(1),
  bank_id: z.coerce
    .number({ error: "bank_id must be the number of one of the listed bank accounts" })
    .int("bank_id must be an integer")
    .positive("bank_id must be positive")
    .optional(),
  customer_name: z
    .string({ error: "customer_name must be text" })
    .trim()
    .min(3, "customer_name must be the payer's full name")
    .max(100, "customer_name is too long (100 characters at most)")
    .optional(),
  customer_email: z.string().trim().pipe(z.email("customer_email is not an e-mail address")).optional(),
  customer_phone: z
    .string()
    .trim()
    .regex(/^\+?[0-9 ()-]{7,20}$/, "customer_phone is not a phone number")
    .optional(),
  sandbox_result: z.enum(["successful", "pending", "failed"]).optional(),
  client_ip: z.string().max(64).optional(),
})

export type TransferSessionData = z.infer<typeof transferSessionDataSchema>

/** The keys a storefront may send for a transfer session (the rest is the plugin's or Medusa's to write). */
export const TRANSFER_STOREFRONT_KEYS: readonly string[] = Object.keys(transferSessionDataSchema.shape).filter(
  (k) => k !== "session_id" && k !== "client_ip"
)

export function parseTransferSessionData(data: unknown): TransferSessionData {
  const cleaned = Object.fromEntries(Object.entries((data ?? {}) as Record<string, unknown>).filter(([, v]) => v !== "" && v !== null))
  const parsed = transferSessionDataSchema.safeParse(cleaned)
  if (!parsed.success) {
    throw odemeError(MedusaError.Types.INVALID_DATA, "odeme.invalid_session_data", `Invalid bank transfer details: ${zodMessage(parsed.error)}`)
  }
  return parsed.data
}
