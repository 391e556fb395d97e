import { checkLiveMinimum, visible } from "./api-guards"
import { BANK_ACCOUNTS, BANK_GROUPS, MESSAGES, publicBank } from "./fixtures"
import { sendJson } from "./http-util"
import { attachTransfer, createPayment, finalize, transferRecord } from "./payments"
import { createTransferSchema } from "./request-schemas"
import type { BankGroupListAnswer, BankListAnswer, CreateTransferAnswer, TransferRecordAnswer } from "./responses"
import { fail, parseWith, type Route, type RouteContext } from "./router"

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** §4.5 create; the outcome follows §3.1 (sandbox_result, next-outcome, or live FAST matching). */
function createTransfer(rc: RouteContext): void {
  const { state } = rc.ctx
  const access = rc.access!
  if (!state.config.permBankTransfer) {
    return fail(rc, 403, "Bank transfer through the API is not permitted for this merchant (api_perm_bank_transfer=0)")
  }
  // §4.5 rule 2: the permission alone is not enough; the merchant needs an active callback URL.
  if (!state.config.webhookUrl) {
    return fail(rc, 403, "Bank transfer through the API needs an active callback URL (webhook URL) in the merchant's API settings")
  }
  const body = parseWith(rc, createTransferSchema)
  const bank = BANK_ACCOUNTS.find((b) => b.bta_id === body.bank_id)
  if (!bank) return fail(rc, 400, `Invalid field "bank_id": ${body.bank_id} is not a known bank account (bta_id)`)
  if (access.mode === "live") {
    if (body.sandbox_result !== undefined) {
      return fail(rc, 400, `Invalid field "sandbox_result": only available with a sandbox API key`)
    }
    checkLiveMinimum(rc.ctx, body.amount, body.currency)
  }
  const p = createPayment(rc.ctx, {
    kind: "bank_transfer_api",
    method: "bank_transfer",
    mode: access.mode,
    api_id: access.apiId,
    order_id: body.order_id,
    amount: body.amount,
    currency: body.currency,
  })
  attachTransfer(p, bank, body.customer_name, {
    client_ip: body.client_ip,
    customer_email: body.customer_email,
    customer_phone: body.customer_phone,
  })
  let outcome: "successful" | "pending" | "failed"
  if (body.sandbox_result) outcome = body.sandbox_result
  else if (state.nextTransferOutcome) {
    outcome = state.nextTransferOutcome
    state.nextTransferOutcome = null
  } else outcome = access.mode === "sandbox" ? "successful" : "pending"
  if (outcome === "pending" && access.mode === "live") {
    // A FAST transfer that already arrived with the same name and amount confirms it at once.
    const fast = state.fastTransfers.find(
      (f) =>
        f.matched_uuid === null &&
        f.currency === p.currency &&
        f.amount === p.amount &&
        f.sender_name.trim().toLocaleUpperCase("tr-TR") === body.customer_name.toLocaleUpperCase("tr-TR")
    )
    if (fast) {
      fast.matched_uuid = p.uuid
      outcome = "successful"
    }
  }
  if (outcome !== "pending") finalize(rc.ctx, p, outcome, { message: MESSAGES.transferRejected })
  sendJson(rc.res, 200, { message: "successful", payment_id: p.uuid, order_id: p.order_id } satisfies CreateTransferAnswer)
}

/**
 * §4.6 control: the tracking number (`br_tracking_no`), live and sandbox; in
 * sandbox `sandbox_result` moves a pending transfer. The uuid returned on
 * creation is for the uuid endpoint only (docs/decisions.md).
 */
function controlTransfer(rc: RouteContext): void {
  const { state } = rc.ctx
  const access = rc.access!
  const id = rc.params.id
  const sandboxResult = rc.query.get("sandbox_result")
  if (access.mode === "live" && sandboxResult !== null) {
    return fail(rc, 400, `Invalid parameter "sandbox_result": only available with a sandbox API key`)
  }
  if (UUID_RE.test(id)) {
    return fail(
      rc,
      404,
      "Payment not found: the control endpoint expects the transfer tracking number (br_tracking_no); query the payment_id returned on creation with /api/pay/bank_transfer/uuid/{uuid}"
    )
  }
  const p = visible(rc, state.findByTrackingNo(id))
  if (!p || !p.transfer) return fail(rc, 404, `Bank transfer ${id} not found`)
  if (sandboxResult !== null) {
    if (sandboxResult !== "successful" && sandboxResult !== "failed") {
      return fail(rc, 400, `Invalid parameter "sandbox_result": must be successful or failed`)
    }
    finalize(rc.ctx, p, sandboxResult, { message: MESSAGES.transferRejected })
  }
  sendJson(rc.res, 200, { result: transferRecord(p) } satisfies TransferRecordAnswer)
}

/** The bank-transfer API (§4.3–§4.6). */
export function transferRoutes(): Route[] {
  return [
    {
      method: "GET",
      pattern: /^\/api\/pay\/bank_transfer\/bank-group\/list$/,
      endpoint: "bank_groups",
      auth: true,
      handler: (rc) => sendJson(rc.res, 200, { result: BANK_GROUPS } satisfies BankGroupListAnswer),
    },
    {
      method: "GET",
      pattern: /^\/api\/pay\/bank_transfer\/get\/banks\/(?<group>[^/]+)$/,
      endpoint: "banks",
      auth: true,
      handler: (rc) => {
        if (!/^\d+$/.test(rc.params.group)) return fail(rc, 400, `Invalid field "bank_group_id": must be an integer`)
        const id = Number(rc.params.group)
        if (!BANK_GROUPS.some((g) => g.id === id)) return fail(rc, 404, `Bank group ${id} not found`)
        const result = BANK_ACCOUNTS.filter((b) => b.group_id === id).map(publicBank)
        sendJson(rc.res, 200, { result } satisfies BankListAnswer)
      },
    },
    { method: "POST", pattern: /^\/api\/pay\/bank_transfer$/, endpoint: "create_transfer", auth: true, handler: createTransfer },
    {
      method: "GET",
      pattern: /^\/api\/pay\/bank_transfer\/control\/(?<id>[^/]+)$/,
      endpoint: "control",
      auth: true,
      handler: controlTransfer,
    },
    {
      method: "GET",
      pattern: /^\/api\/pay\/bank_transfer\/uuid\/(?<uuid>[^/]+)$/,
      endpoint: "uuid",
      auth: true,
      handler: (rc) => {
        const p = visible(rc, rc.ctx.state.payments.get(rc.params.uuid))
        if (!p || !p.transfer) return fail(rc, 404, `Bank transfer with uuid ${rc.params.uuid} not found`)
        sendJson(rc.res, 200, { result: transferRecord(p) } satisfies TransferRecordAnswer)
      },
    },
  ]
}
