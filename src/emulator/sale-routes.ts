import { checkLiveMinimum, visible } from "./api-guards"
import { MESSAGES } from "./fixtures"
import { sendJson } from "./http-util"
import { judgeNotification } from "./notifications"
import { createPayment, finalize } from "./payments"
import { creditCardSchema, saleInfoSchema, verifySchema } from "./request-schemas"
import type { CardAnswer, SaleInfoAnswer, VerifyAnswer, VerifyMode } from "./responses"
import { fail, parseWith, type Route, type RouteContext } from "./router"
import type { Payment } from "./types"

function verifyMode(p: Payment): VerifyMode {
  if (p.kind === "quick_checkout" || p.kind === "hosted_checkout") return "quick_checkout_fallback"
  if (p.kind === "bank_transfer_api" && p.mode === "sandbox") return "sandbox"
  return "api_cc_pos"
}

/** §4.7 sandbox card payment: answered pending, completed on its redirect_url page (or by next-outcome). */
function creditCard(rc: RouteContext): void {
  const { state } = rc.ctx
  const access = rc.access!
  const body = parseWith(rc, creditCardSchema)
  const currency = body.currency ?? "TRY"
  if (access.mode === "live") checkLiveMinimum(rc.ctx, body.amount, currency)
  const p = createPayment(rc.ctx, {
    kind: "card_api",
    method: "credit_card",
    mode: access.mode,
    api_id: access.apiId,
    order_id: body.order_id,
    amount: body.amount,
    currency,
    description: body.description,
    success_url: body.success_url,
    cancel_url: body.cancel_url,
  })
  const outcome = state.nextCardOutcome
  state.nextCardOutcome = null
  if (outcome && outcome !== "pending") {
    // Completed just after the answer, as if the customer pressed a button right away.
    setImmediate(() => finalize(rc.ctx, p, outcome, { message: MESSAGES.reject }))
  }
  sendJson(rc.res, 200, {
    status: "pending",
    redirect_url: `${state.config.publicUrl}/checkout/session/${p.uuid}`,
    uuid: p.uuid,
    order_id: p.order_id,
    transaction_id: p.transaction_id,
  } satisfies CardAnswer)
}

/** §4.8: judged on the notification's own fields (see judgeNotification). */
function verify(rc: RouteContext): void {
  const body = parseWith(rc, verifySchema)
  const p = visible(rc, rc.ctx.state.payments.get(body.uuid))
  if (!p) {
    return sendJson(rc.res, 200, {
      success: true,
      is_valid: false,
      payment_confirmed: false,
      official_status: "pending",
      status_match: false,
      hash_match: false,
      order_id: body.order_id,
      uuid: body.uuid,
      mode: rc.access!.mode === "sandbox" ? "sandbox" : "api_cc_pos",
      message: "Payment not found",
    } satisfies VerifyAnswer)
  }
  const judged = judgeNotification(p, body)
  sendJson(rc.res, 200, {
    success: true,
    is_valid: judged.is_valid,
    payment_confirmed: p.status === "successful",
    official_status: p.status,
    status_match: judged.status_match,
    hash_match: judged.hash_match,
    order_id: p.order_id,
    uuid: p.uuid,
    mode: verifyMode(p),
    ...(judged.order_match ? {} : { message: "order_id does not match the payment" }),
  } satisfies VerifyAnswer)
}

/** §4.9: the latest successful sandbox payment matching any of the given ids. */
function saleInfo(rc: RouteContext): void {
  const body = parseWith(rc, saleInfoSchema)
  if (!body.order_id && !body.uuid && !body.transaction_id) {
    return fail(rc, 400, `Missing required field "order_id", "uuid" or "transaction_id"`)
  }
  const candidates = [...rc.ctx.state.payments.values()].filter(
    (p) =>
      (body.uuid === undefined || p.uuid === body.uuid) &&
      (body.order_id === undefined || p.order_id === body.order_id) &&
      (body.transaction_id === undefined || p.transaction_id === body.transaction_id) &&
      p.mode === "sandbox" &&
      rc.access!.mode === "sandbox" &&
      p.status === "successful"
  )
  const p = candidates[candidates.length - 1]
  if (!p) return fail(rc, 404, "No successful sandbox payment matches the query")
  sendJson(rc.res, 200, {
    success: true,
    result: {
      uuid: p.uuid,
      order_id: p.order_id,
      transaction_id: p.transaction_id,
      status: p.status,
      type: p.method === "bank_transfer" ? "bank_transfer" : "credit_card",
      amount: Number(p.amount),
      currency: p.currency,
      description: p.description ?? null,
      created_at: p.created_at,
      completed_at: p.completed_at ?? null,
    },
  } satisfies SaleInfoAnswer)
}

/** Card, verify and sale endpoints (§4.7–§4.11). */
export function saleRoutes(): Route[] {
  return [
    { method: "POST", pattern: /^\/api\/pay\/credit_card$/, endpoint: "credit_card", auth: true, handler: creditCard },
    { method: "POST", pattern: /^\/api\/sale\/webhook\/verify$/, endpoint: "verify", auth: true, handler: verify },
    { method: "POST", pattern: /^\/api\/sale\/info(?:\/transaction)?$/, endpoint: "sale_info", auth: true, handler: saleInfo },
    {
      method: "POST",
      pattern: /^\/api\/sale\/verify(?:\/transaction)?$/,
      auth: true,
      // §4.11: not the confirmation endpoint.
      handler: (rc) => fail(rc, 400, "Use /api/sale/webhook/verify to confirm payments"),
    },
    {
      method: "POST",
      pattern: /^\/api\/public\/payment\/notification$/,
      handler: (rc) => sendJson(rc.res, 200, { success: true }),
    },
  ]
}
