import { randomBytes } from "node:crypto"
import { type ScenarioContext, ScenarioFailure, SkipScenario } from "./context"
import { CREATE_MESSAGE, CREATE_TRANSFER, SALE_STATUS, TRANSFER_RECORD } from "./expectations"
import { SPEC_ENDPOINTS, specPath } from "./spec-endpoints"
import { CreateTransferAnswer, sameAmount, TransferRecordAnswer } from "./spec-schemas"

/** The bank-transfer steps scenarios are made of (§4.5, §4.6), and what they hand on. */

export type Outcome = "successful" | "pending" | "failed"

export interface TransferRef {
  payment_id: string
  order_id: string
  tracking_no?: string
}

/** What scenarios hand on to later ones. */
export interface SharedState {
  runId: string
  groupIds: number[]
  bankId?: number
  transfers: Partial<Record<Outcome, TransferRef>>
}

export function newSharedState(): SharedState {
  return {
    runId: `${Date.now().toString(36)}${randomBytes(3).toString("hex")}`,
    groupIds: [],
    transfers: {},
  }
}

/** Synthetic, clearly marked test data; never a real person. */
export const CONTRACT_AMOUNT = "150.00"
export const CONTRACT_CURRENCY = "TRY"
export const CONTRACT_CUSTOMER = {
  customer_name: "Contract Test",
  client_ip: "203.0.113.10",
  customer_email: "contract-test@example.com",
  customer_phone: "5550000000",
}
export const CONTRACT_SUCCESS_URL = "https://merchant.example/odeme-contract/success"
export const CONTRACT_CANCEL_URL = "https://merchant.example/odeme-contract/cancel"

export function orderId(shared: SharedState, suffix: string): string {
  return `contract-${shared.runId}-${suffix}`
}

export function field(res: { raw: unknown; data: unknown }, key: string): unknown {
  const src = (res.data ?? res.raw) as Record<string, unknown> | undefined
  return src && typeof src === "object" ? src[key] : undefined
}

export function need<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new SkipScenario(`needs ${what}, which an earlier scenario did not produce`)
  return value
}

export async function createTransfer(
  ctx: ScenarioContext,
  shared: SharedState,
  outcome: Outcome,
  stepName: string,
  suffix: string
): Promise<TransferRef> {
  const bankId = need(shared.bankId, "a bank account (bta_id)")
  const order = orderId(shared, suffix)
  const res = await ctx.json({
    name: stepName,
    method: "POST",
    template: SPEC_ENDPOINTS.createTransfer.template,
    path: specPath(SPEC_ENDPOINTS.createTransfer),
    body: {
      bank_id: bankId,
      amount: CONTRACT_AMOUNT,
      currency: CONTRACT_CURRENCY,
      order_id: order,
      ...CONTRACT_CUSTOMER,
      sandbox_result: outcome,
    },
    schema: CreateTransferAnswer,
    schemaName: "CreateTransferAnswer (§4.5)",
    shape: CREATE_TRANSFER,
  })
  ctx.check(`${stepName}: message`, CREATE_MESSAGE, field(res, "message"))
  ctx.check(`${stepName}: order_id echoed`, order, field(res, "order_id") === undefined ? undefined : String(field(res, "order_id")))
  const paymentId = field(res, "payment_id")
  if (typeof paymentId !== "string" || paymentId === "") {
    throw new ScenarioFailure(`${stepName}: the answer has no payment_id`)
  }
  return { payment_id: paymentId, order_id: order }
}

function recordOf(res: { raw: unknown; data: unknown }): Record<string, unknown> {
  const result = field(res, "result")
  return result && typeof result === "object" ? (result as Record<string, unknown>) : {}
}

export async function queryUuid(ctx: ScenarioContext, ref: TransferRef, stepName: string, expected: Outcome) {
  const res = await ctx.json({
    name: stepName,
    method: "GET",
    template: SPEC_ENDPOINTS.byUuid.template,
    path: specPath(SPEC_ENDPOINTS.byUuid, { uuid: ref.payment_id }),
    schema: TransferRecordAnswer,
    schemaName: "TransferRecordAnswer (§2.5)",
    shape: TRANSFER_RECORD,
  })
  const rec = recordOf(res)
  ctx.check(`${stepName}: sale_status`, SALE_STATUS[expected], rec.sale_status)
  checkRecordAmount(ctx, stepName, rec)
  if (rec.br_tracking_no !== undefined && rec.br_tracking_no !== null && String(rec.br_tracking_no) !== "") {
    ref.tracking_no = String(rec.br_tracking_no)
  }
  return rec
}

/** The record's amount and currency are the ones the transfer was created with. */
function checkRecordAmount(ctx: ScenarioContext, stepName: string, rec: Record<string, unknown>): void {
  ctx.check(`${stepName}: br_price`, Number(CONTRACT_AMOUNT), rec.br_price, sameAmount(rec.br_price, CONTRACT_AMOUNT))
  ctx.check(`${stepName}: br_currency`, CONTRACT_CURRENCY, rec.br_currency)
}

export async function control(ctx: ScenarioContext, ref: TransferRef, stepName: string, expected: Outcome, sandboxResult?: "successful" | "failed") {
  const tracking = need(ref.tracking_no, "the transfer's br_tracking_no")
  const query = sandboxResult ? `?sandbox_result=${sandboxResult}` : ""
  const res = await ctx.json({
    name: stepName,
    method: "GET",
    template: `${SPEC_ENDPOINTS.control.template}${query ? "?sandbox_result=…" : ""}`,
    path: `${specPath(SPEC_ENDPOINTS.control, { payment_id: tracking })}${query}`,
    schema: TransferRecordAnswer,
    schemaName: "TransferRecordAnswer (§2.5)",
    shape: TRANSFER_RECORD,
  })
  const rec = recordOf(res)
  ctx.check(`${stepName}: sale_status`, SALE_STATUS[expected], rec.sale_status)
  ctx.check(`${stepName}: br_tracking_no echoed`, tracking, rec.br_tracking_no === undefined ? undefined : String(rec.br_tracking_no))
  return rec
}
