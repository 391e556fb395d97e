import { ODEME_ENDPOINTS } from "./endpoints"
import { BankGroupListResponseSchema, BankListResponseSchema, type BankAccount, type BankGroup } from "./schemas"
import type { OdemeTransport } from "./transport"

type Caller = Pick<OdemeTransport, "call">

/** §4.3 */
export async function listBankGroups(t: Caller): Promise<BankGroup[]> {
  const ep = ODEME_ENDPOINTS.listBankGroups
  return (await t.call(ep, ep.template, BankGroupListResponseSchema)).result
}

/** §4.4 */
export async function listBanks(t: Caller, bankGroupId: number): Promise<BankAccount[]> {
  const id = Number(bankGroupId)
  if (!Number.isSafeInteger(id) || id < 0) throw new TypeError("bankGroupId must be an integer")
  return (await t.call(ODEME_ENDPOINTS.listBanks, `/api/pay/bank_transfer/get/banks/${id}`, BankListResponseSchema)).result
}
