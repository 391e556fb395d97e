import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { formatIban } from "../../../../../lib/bank-accounts"
import { transferCreatedAt, transferExpiresAt } from "../../../../../lib/transfer-check"
import { toStorefrontStatus, type OdemeState } from "../../../../../lib/status"
import { odemeModule } from "../../../../../modules/odeme/resolve"
import { findOwnedSession } from "../../../../utils/owned-session"
import type { StoreGetOdemePaymentSessionParamsType } from "../../validators"

/**
 * GET /store/odeme/payment-sessions/:id?cart_id=… (or, for an order's
 * balance, ?payment_collection_id=…&order_id=…): the safe status of a session
 * for a waiting page. Only the cart or order that owns the session may read
 * it; nothing secret is in the answer.
 */
export async function GET(req: MedusaRequest<unknown, StoreGetOdemePaymentSessionParamsType>, res: MedusaResponse) {
  const session = await findOwnedSession(req, req.params.id, req.validatedQuery)
  const row = await odemeModule(req.scope).getPayment(session.id)
  const state = (row?.status ?? "pending") as OdemeState
  const odeme = odemeModule(req.scope)
  // The deadline the shopper is shown while an API transfer waits (the poller expires it then).
  const expiresAt =
    row?.flow === "transfer_api" && row.service_uuid
      ? transferExpiresAt(transferCreatedAt(row), odeme.odemeOptions.transfer.expiryHours).toISOString()
      : null
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
      expires_at: expiresAt,
      reference: session.id,
      // The short reference the service's page showed, for the shopper's pages (null for a session from before them).
      shopper_reference: row?.reference ?? null,
      payment_collection_id: session.payment_collection_id,
      order_id: session.order_id,
    },
  })
}
