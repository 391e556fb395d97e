import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { ContainerRegistrationKeys, MedusaError } from "@medusajs/framework/utils"
import { z } from "zod"
import { formatIban } from "../../../../../lib/bank-directory"
import { toStorefrontStatus, type OdemeState } from "../../../../../lib/status"
import { odemeModule } from "../../../../utils/odeme-module"

const querySchema = z.object({
  cart_id: z.string({ required_error: "cart_id is required" }).min(1, "cart_id is required").max(100),
})

/**
 * GET /store/odeme/payment-sessions/:id?cart_id=…: the safe status of a
 * session for a waiting page. Only the cart that owns the session may read
 * it; nothing secret is in the answer.
 */
export async function GET(req: MedusaRequest, res: MedusaResponse) {
  const parsed = querySchema.safeParse(req.query)
  if (!parsed.success) {
    throw new MedusaError(MedusaError.Types.INVALID_DATA, parsed.error.issues.map((i) => i.message).join("; "))
  }
  const query = req.scope.resolve(ContainerRegistrationKeys.QUERY)
  const { data: sessions } = await query.graph({
    entity: "payment_session",
    fields: ["id", "status", "provider_id", "amount", "currency_code", "payment_collection.cart.id"],
    filters: { id: req.params.id },
  })
  const session = sessions[0] as
    | { id: string; status: string; provider_id: string; payment_collection?: { cart?: { id?: string } } }
    | undefined
  // The same answer for "no such session" and "not your cart", so ids cannot be probed.
  if (!session || session.payment_collection?.cart?.id !== parsed.data.cart_id || !session.provider_id.startsWith("pp_odeme-")) {
    throw new MedusaError(MedusaError.Types.NOT_FOUND, `Payment session ${req.params.id} was not found for this cart.`)
  }
  const [row] = await odemeModule(req.scope).listOdemePayments({ session_id: session.id })
  const state = (row?.status ?? "pending") as OdemeState
  res.json({
    payment_session: {
      id: session.id,
      provider_id: session.provider_id,
      session_status: session.status,
      state,
      status: toStorefrontStatus(state),
      amount: row?.amount ?? null,
      currency: row?.currency ?? null,
      flow: row?.flow ?? null,
      bank_name: row?.bank_name ?? null,
      account_holder: row?.account_holder ?? null,
      iban: row?.iban ?? null,
      iban_display: row?.iban ? formatIban(row.iban) : null,
      tracking_no: row?.tracking_no ?? null,
      payer_name: row?.payer_name ?? null,
      reference: session.id,
    },
  })
}
