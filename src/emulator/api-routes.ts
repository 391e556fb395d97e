import { z } from "zod"
import type { EmulatorContext } from "./context"
import { BANK_ACCOUNTS, BANK_GROUPS, publicBank } from "./fixtures"
import { hashEquals } from "./hash"
import { HttpError, sendJson } from "./http-util"
import { gte, parseLooseAmount, toTry } from "./money"
import {
  attachTransfer,
  createPayment,
  finalize,
  MESSAGES,
  transferRecord,
  verifyMode,
} from "./payments"
import { fail, parseWith, type Route, type RouteContext } from "./router"
import type { Payment } from "./types"

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

const idString = z.union([z.string().trim().min(1, "must not be empty"), z.number().transform((n) => String(n))])
const amountField = z
  .union([z.number(), z.string()])
  .transform((v, c) => {
    const a = parseLooseAmount(v)
    if (a === undefined || Number(a) <= 0) {
      c.addIssue({ code: z.ZodIssueCode.custom, message: "must be a decimal amount greater than 0" })
      return z.NEVER
    }
    return a
  })
const currencyOf = (list: string[]) =>
  z
    .string()
    .transform((s) => s.trim().toUpperCase())
    .refine((s) => list.includes(s), { message: `must be one of ${list.join(", ")}` })

const createTransferSchema = z.object({
  bank_id: z.union([z.number().int(), z.string().regex(/^\d+$/, "must be an integer").transform(Number)]),
  amount: amountField,
  currency: currencyOf(["TRY", "USD", "EUR"]),
  order_id: idString,
  customer_name: z.string().trim().min(1, "must not be empty"),
  client_ip: z.string().trim().min(1, "must not be empty"),
  customer_email: z.string().optional(),
  customer_phone: z.string().optional(),
  sandbox_result: z.enum(["successful", "pending", "failed"]).optional(),
})

const creditCardSchema = z.object({
  amount: amountField,
  currency: currencyOf(["TRY", "USD", "EUR", "GBP"]).optional(),
  order_id: idString,
  description: z.string().optional(),
  success_url: z.string().url().optional(),
  cancel_url: z.string().url().optional(),
})

const verifySchema = z.object({
  order_id: idString,
  uuid: z.string().min(1, "must not be empty"),
  status: z.string().min(1, "must not be empty"),
  hash: z.string().min(1, "must not be empty"),
})

const saleInfoSchema = z.object({
  order_id: idString.optional(),
  uuid: z.string().optional(),
  transaction_id: idString.optional(),
})

/** A payment visible to the calling key: sandbox and live records are separate (§5.1 rule 3). */
function visible(rc: RouteContext, p: Payment | undefined): Payment | undefined {
  return p && p.mode === rc.access!.mode ? p : undefined
}

function checkLiveMinimum(ctx: EmulatorContext, amount: string, currency: string): void {
  const tryValue = toTry(amount, currency, ctx.state.config.rates)
  if (tryValue === undefined) throw new HttpError(400, `No exchange rate configured for ${currency}`)
  if (!gte(tryValue, ctx.state.config.minimumAmountTry)) {
    throw new HttpError(
      400,
      `Amount ${amount} ${currency} (${tryValue} TRY) is below the minimum of ${ctx.state.config.minimumAmountTry} TRY`
    )
  }
}

export function apiRoutes(): Route[] {
  return [
    {
      method: "GET",
      pattern: /^\/api\/pay\/bank_transfer\/bank-group\/list$/,
      endpoint: "bank_groups",
      auth: true,
      handler: (rc) => sendJson(rc.res, 200, { result: BANK_GROUPS }),
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
        sendJson(rc.res, 200, { result: BANK_ACCOUNTS.filter((b) => b.group_id === id).map(publicBank) })
      },
    },
    {
      method: "POST",
      pattern: /^\/api\/pay\/bank_transfer$/,
      endpoint: "create_transfer",
      auth: true,
      handler: (rc) => {
        const { state } = rc.ctx
        const access = rc.access!
        if (!state.config.permBankTransfer) {
          return fail(rc, 403, "Bank transfer through the API is not permitted for this merchant (api_perm_bank_transfer=0)")
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
        sendJson(rc.res, 200, { message: "successful", payment_id: p.uuid, order_id: p.order_id })
      },
    },
    {
      method: "GET",
      pattern: /^\/api\/pay\/bank_transfer\/control\/(?<id>[^/]+)$/,
      endpoint: "control",
      auth: true,
      handler: (rc) => {
        const { state } = rc.ctx
        const access = rc.access!
        const id = rc.params.id
        const sandboxResult = rc.query.get("sandbox_result")
        if (access.mode === "live" && sandboxResult !== null) {
          return fail(rc, 400, `Invalid parameter "sandbox_result": only available with a sandbox API key`)
        }
        let p: Payment | undefined
        if (access.mode === "live") {
          if (UUID_RE.test(id)) {
            return fail(
              rc,
              404,
              "Payment not found: the control endpoint expects the transfer tracking number (br_tracking_no); query the payment_id returned on creation with /api/pay/bank_transfer/uuid/{uuid}"
            )
          }
          p = state.findByTrackingNo(id)
        } else {
          p = state.findByTrackingNo(id) ?? state.payments.get(id)
        }
        p = visible(rc, p)
        if (!p || !p.transfer) return fail(rc, 404, `Bank transfer ${id} not found`)
        if (sandboxResult !== null) {
          if (sandboxResult !== "successful" && sandboxResult !== "failed") {
            return fail(rc, 400, `Invalid parameter "sandbox_result": must be successful or failed`)
          }
          finalize(rc.ctx, p, sandboxResult, { message: MESSAGES.transferRejected })
        }
        sendJson(rc.res, 200, { result: transferRecord(p) })
      },
    },
    {
      method: "GET",
      pattern: /^\/api\/pay\/bank_transfer\/uuid\/(?<uuid>[^/]+)$/,
      endpoint: "uuid",
      auth: true,
      handler: (rc) => {
        const p = visible(rc, rc.ctx.state.payments.get(rc.params.uuid))
        if (!p || !p.transfer) return fail(rc, 404, `Bank transfer with uuid ${rc.params.uuid} not found`)
        sendJson(rc.res, 200, { result: transferRecord(p) })
      },
    },
    {
      method: "POST",
      pattern: /^\/api\/pay\/credit_card$/,
      endpoint: "credit_card",
      auth: true,
      handler: (rc) => {
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
        })
      },
    },
    {
      method: "POST",
      pattern: /^\/api\/sale\/webhook\/verify$/,
      endpoint: "verify",
      auth: true,
      handler: (rc) => {
        const body = parseWith(rc, verifySchema)
        const status = body.status === "success" ? "successful" : body.status === "error" ? "failed" : body.status
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
          })
        }
        const built = status === "successful" || status === "failed" ? p.hashes[status] : undefined
        const hashMatch = built !== undefined && hashEquals(built, body.hash)
        const orderMatch = p.order_id === body.order_id
        const isValid = orderMatch && hashMatch
        sendJson(rc.res, 200, {
          success: true,
          is_valid: isValid,
          payment_confirmed: p.status === "successful",
          official_status: p.status,
          status_match: status === p.status,
          hash_match: hashMatch,
          order_id: p.order_id,
          uuid: p.uuid,
          mode: verifyMode(p),
          ...(orderMatch ? {} : { message: "order_id does not match the payment" }),
        })
      },
    },
    {
      method: "POST",
      pattern: /^\/api\/sale\/info(?:\/transaction)?$/,
      endpoint: "sale_info",
      auth: true,
      handler: (rc) => {
        const body = parseWith(rc, saleInfoSchema)
        if (!body.order_id && !body.uuid && !body.transaction_id) {
          return fail(rc, 400, `Missing required field "order_id", "uuid" or "transaction_id"`)
        }
        const { state } = rc.ctx
        const candidates = [...state.payments.values()].filter(
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
        })
      },
    },
    {
      method: "POST",
      pattern: /^\/api\/sale\/verify(?:\/transaction)?$/,
      auth: true,
      handler: (rc) => fail(rc, 400, "Use /api/sale/webhook/verify to confirm payments"),
    },
    {
      method: "POST",
      pattern: /^\/api\/public\/payment\/notification$/,
      handler: (rc) => sendJson(rc.res, 200, { success: true }),
    },
  ]
}
