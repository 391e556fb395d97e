import { MedusaError } from "@medusajs/framework/utils"
import type { AuthorizePaymentInput, AuthorizePaymentOutput, InitiatePaymentInput, InitiatePaymentOutput } from "@medusajs/framework/types"
import { z } from "@medusajs/framework/zod"
import { chargeableAmount } from "../../../lib/amount-rules"
import { odemeError, unpayableError } from "../../../lib/medusa-errors"
import { zodMessage } from "../../../storefront/validation-message"
import { checkoutDescription, checkoutFormFor } from "../../../lib/checkout-form"
import { allowedStorefrontOrigins, CHECKOUT_CURRENCIES } from "../../../lib/options"
import { toSessionStatus, type OdemeState } from "../../../lib/status"
import { OdemeBase } from "../core/odeme-base"
import { PaymentProviderKeys } from "../types"

type Data = Record<string, unknown>

// Unknown keys are dropped: the session data is copied onto the payment, which Admin reads (a storefront's
// `manual_refunds` would show there as money to pay back).
const checkoutDataSchema = z.object({
  session_id: z.string().min(1),
  return_url: z.url("return_url must be a full URL on the storefront").max(2000).optional(),
})

/** The keys a storefront may send for a Quick Checkout session. */
export const CHECKOUT_STOREFRONT_KEYS: readonly string[] = Object.keys(checkoutDataSchema.shape).filter((k) => k !== "session_id")

/**
 * Quick Checkout (spec §4.2): the customer pays by card or transfer on the
 * service's page, reached with a form signed here. Nothing is believed from
 * the browser: the session becomes `captured` only after the confirmation
 * path verified a notification with the service and matched it to the session.
 */
export class OdemeCheckoutProvider extends OdemeBase {
  static identifier = PaymentProviderKeys.CHECKOUT

  constructor(cradle: Record<string, unknown>, options: Record<string, unknown>) {
    super(cradle, options)
  }

  async initiatePayment(input: InitiatePaymentInput): Promise<InitiatePaymentOutput> {
    const parsed = checkoutDataSchema.safeParse(input.data ?? {})
    if (!parsed.success) {
      throw odemeError(MedusaError.Types.INVALID_DATA, "odeme.invalid_session_data", zodMessage(parsed.error))
    }
    const data = { ...parsed.data, session_id: this.medusaSessionId(input) }
    if (data.return_url && !allowedStorefrontOrigins(this.options_).includes(new URL(data.return_url).origin)) {
      throw odemeError(
        MedusaError.Types.INVALID_DATA,
        "odeme.return_url_not_allowed",
        "return_url must be on one of the storefront origins configured for medusa-payment-odeme (storefrontUrl, storefrontOrigins)."
      )
    }
    const { amount, currency } = chargeableAmount(input, CHECKOUT_CURRENCIES, this.options_, "Quick Checkout")
    this.refuseSandboxKeyInLiveStore()
    const recorded = await this.odeme.recordInitiated({
      session_id: data.session_id,
      provider: PaymentProviderKeys.CHECKOUT,
      flow: null,
      mode: this.options_.mode,
      amount,
      currency,
      metadata: data.return_url ? { return_url: data.return_url } : null,
    })
    const form = checkoutFormFor(this.options_, { session_id: data.session_id, reference: recorded.reference, amount, currency })
    return {
      id: data.session_id,
      status: toSessionStatus("pending"),
      data: {
        ...data,
        ...this.ownership(data.session_id),
        provider: PaymentProviderKeys.CHECKOUT,
        reference: data.session_id,
        // What the shopper reads on the service's page and may quote; `reference` stays the session id for the storefront's calls.
        shopper_reference: recorded.reference,
        amount,
        currency,
        description: checkoutDescription(this.options_, data.session_id, null, recorded.reference),
        mode: this.options_.mode,
        form,
        state: "pending" satisfies OdemeState,
      },
    }
  }

  async authorizePayment(input: AuthorizePaymentInput): Promise<AuthorizePaymentOutput> {
    const raw = { ...(input.data ?? {}), session_id: this.medusaSessionId(input) }
    const { state, data } = await this.currentState(raw)
    if (state === "paid") return { status: toSessionStatus("paid"), data }
    throw unpayableError(state, MedusaError.Types.PAYMENT_AUTHORIZATION_ERROR)
  }

  /** Only the confirmation path moves a checkout session; this reads what it recorded. */
  protected async currentState(raw: Data): Promise<{ state: OdemeState; data: Data }> {
    const row = await this.odeme.getPayment(this.sessionIdOf(raw))
    const state = row?.status ?? "pending"
    const { form: _form, ...rest } = raw
    return {
      state,
      data: {
        ...rest,
        ...(row ? this.ownership(row.session_id) : {}),
        state,
        payment_id: row?.service_uuid ?? null,
        flow: row?.flow ?? null,
        charged_amount: row?.charged_amount ?? null,
        charged_currency: row?.charged_currency ?? null,
      },
    }
  }
}
