import { ODEME_ENDPOINTS } from "./endpoints"
import { CardPaymentRecordSchema, LooseObjectSchema, type CardPaymentRecord } from "./schemas"
import type { OdemeTransport } from "./transport"

type Caller = Pick<OdemeTransport, "call">

/** §4.7 (sandbox). Never retried. Request fields are not documented, so the body is passed as given. */
export async function createCardPayment(t: Caller, input: Record<string, unknown>): Promise<CardPaymentRecord> {
  if (!input || typeof input !== "object" || Array.isArray(input)) throw new TypeError("createCardPayment input must be an object")
  const ep = ODEME_ENDPOINTS.createCardPayment
  return t.call(ep, ep.template, CardPaymentRecordSchema, input)
}

/** §4.9, shapes not documented: any JSON object is returned as is. */
export async function saleInfo(t: Caller, body: Record<string, unknown>): Promise<Record<string, unknown>> {
  const ep = ODEME_ENDPOINTS.saleInfo
  return t.call(ep, ep.template, LooseObjectSchema, body ?? {})
}

/** §4.9 */
export async function saleInfoTransaction(t: Caller, body: Record<string, unknown>): Promise<Record<string, unknown>> {
  const ep = ODEME_ENDPOINTS.saleInfoTransaction
  return t.call(ep, ep.template, LooseObjectSchema, body ?? {})
}
