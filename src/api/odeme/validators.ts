import { z } from "@medusajs/framework/zod"

/**
 * What the return route accepts (spec §6.1). The webhook is not here: it
 * validates in its own intake (`src/lib/webhook-intake.ts`), which must hash
 * the body exactly as it arrived.
 */

export const OdemeReturnParams = z.object({
  session_id: z.string().regex(/^payses_[A-Za-z0-9]{10,60}$/, "Invalid return address."),
  outcome: z.enum(["success", "cancel"]),
  /** The session's return proof (lib/session-tag.ts); a wrong one is no proof, not an error. */
  proof: z.string().max(100).optional(),
})

/** PostgreSQL refuses U+0000 in text and jsonb: such a value could never be stored, so it is refused as invalid. */
const text = (max: number) =>
  z
    .string()
    .max(max)
    .refine((s) => !s.includes("\u0000"), "NUL characters are not allowed")
    .optional()

/** Redirect parameters, every one optional and all navigation only; kept as they arrived (status `success`/`error`). */
export const OdemeReturnQuery = z.object({
  status: text(20),
  order_id: text(200),
  uuid: text(100),
  hash: text(1024),
  type: text(50),
  amount: text(40),
  currency: text(10),
  transaction_id: text(100),
  message: text(500),
  ts: text(20),
  epin: text(100),
})
export type OdemeReturnQueryType = z.infer<typeof OdemeReturnQuery>
