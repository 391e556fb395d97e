import { z } from "zod"
import { FAULT_ENDPOINTS } from "./faults"
import { BANK_ACCOUNTS, MESSAGES } from "./fixtures"
import { HttpError, sendJson } from "./http-util"
import { formatAmount, parseLooseAmount } from "./money"
import { attachTransfer, createPayment, finalize, matchFastTransfer, saleStatus, transferRecord } from "./payments"
import { publicConfig } from "./state"
import { parseWith, type Route, type RouteContext } from "./router"
import type { Payment } from "./types"
import { WEBHOOK_SHAPES } from "./webhook-shapes"

const configSchema = z.strictObject({
  webhookUrl: z.union([z.url(), z.null()]).optional(),
  mode: z.enum(["sandbox", "live"]).optional(),
  apiIp: z.string().min(1).optional(),
  permBankTransfer: z.boolean().optional(),
  pmBankTransfer: z.boolean().optional(),
  minimumAmountTry: z
    .string()
    .regex(/^\d+(\.\d+)?$/, "must be a decimal string")
    .optional(),
  currencyVariant: z.enum(["A", "B"]).optional(),
  webhookRetryDelaysMs: z.array(z.number().int().min(0)).optional(),
  signatureMaxAgeSeconds: z.number().int().positive().optional(),
  rates: z.record(z.string(), z.string().regex(/^\d+(\.\d+)?$/)).optional(),
})

const faultSchema = z.object({
  endpoint: z.enum(FAULT_ENDPOINTS),
  mode: z.enum(["error500", "refuse400", "hang", "slow", "commit_then_502"]),
  count: z.number().int().positive().default(1),
  delayMs: z.number().int().min(0).default(1000),
})

const bulkTransfersSchema = z.object({
  orders: z.array(z.string().min(1).max(64)).min(1).max(20_000),
  amount: z
    .string()
    .regex(/^\d+\.\d{2}$/)
    .default("10.00"),
  currency: z.enum(["TRY", "USD", "EUR"]).default("TRY"),
})

const webhookSettingsSchema = z.strictObject({
  paused: z.boolean().optional(),
  duplicate: z.number().int().min(0).max(20).optional(),
  delayMs: z.number().int().min(0).optional(),
  reorder: z.boolean().optional(),
  shape: z.enum(WEBHOOK_SHAPES).optional(),
})

/** Full record for the control API (includes kind, method, hashes and the §2.5 view of transfers). */
function fullRecord(p: Payment) {
  return {
    ...p,
    type: p.method,
    sale_status: p.transfer ? saleStatus(p) : undefined,
    transfer_record: p.transfer ? transferRecord(p) : undefined,
  }
}

function findPayment(rc: RouteContext, id: string): Payment {
  const p = rc.ctx.state.payments.get(id) ?? rc.ctx.state.findByTrackingNo(id)
  if (!p) throw new HttpError(404, `Payment ${id} not found`)
  return p
}

export function controlRoutes(): Route[] {
  return [
    {
      method: "GET",
      pattern: /^\/_control\/health$/,
      handler: (rc) =>
        sendJson(rc.res, 200, {
          ok: true,
          service: "odeme-emulator",
          payments: rc.ctx.state.payments.size,
          webhooks: rc.ctx.webhooks.records.length,
          hanging_requests: rc.ctx.faults.hangingCount,
        }),
    },
    {
      method: "POST",
      pattern: /^\/_control\/reset$/,
      handler: (rc) => {
        rc.ctx.state.reset()
        rc.ctx.faults.reset()
        rc.ctx.webhooks.reset()
        rc.ctx.log("state reset")
        sendJson(rc.res, 200, { ok: true })
      },
    },
    {
      method: "GET",
      pattern: /^\/_control\/config$/,
      handler: (rc) => sendJson(rc.res, 200, publicConfig(rc.ctx.state.config)),
    },
    {
      method: "POST",
      pattern: /^\/_control\/config$/,
      handler: (rc) => {
        const body = parseWith(rc, configSchema)
        const c = rc.ctx.state.config
        if (body.webhookUrl !== undefined) c.webhookUrl = body.webhookUrl ?? undefined
        if (body.mode) c.accesses[0].mode = body.mode
        if (body.apiIp) c.accesses[0].apiIp = body.apiIp
        if (body.permBankTransfer !== undefined) c.permBankTransfer = body.permBankTransfer
        if (body.pmBankTransfer !== undefined) c.pmBankTransfer = body.pmBankTransfer
        if (body.minimumAmountTry) c.minimumAmountTry = formatAmount(body.minimumAmountTry)
        if (body.currencyVariant) c.currencyVariant = body.currencyVariant
        if (body.webhookRetryDelaysMs) c.webhookRetryDelaysMs = [...body.webhookRetryDelaysMs]
        if (body.signatureMaxAgeSeconds) c.signatureMaxAgeSeconds = body.signatureMaxAgeSeconds
        if (body.rates) c.rates = { ...c.rates, ...body.rates }
        sendJson(rc.res, 200, publicConfig(c))
      },
    },
    {
      method: "POST",
      pattern: /^\/_control\/next-outcome$/,
      handler: (rc) => {
        const { outcome } = parseWith(rc, z.object({ outcome: z.enum(["successful", "failed", "pending"]) }))
        rc.ctx.state.nextTransferOutcome = outcome
        rc.ctx.state.nextCardOutcome = outcome
        sendJson(rc.res, 200, { ok: true, outcome })
      },
    },
    {
      method: "GET",
      pattern: /^\/_control\/payments$/,
      handler: (rc) => sendJson(rc.res, 200, { result: [...rc.ctx.state.payments.values()].map(fullRecord) }),
    },
    {
      method: "GET",
      pattern: /^\/_control\/transfers$/,
      handler: (rc) =>
        sendJson(rc.res, 200, {
          result: [...rc.ctx.state.payments.values()].filter((p) => p.transfer).map(fullRecord),
          fast_transfers: rc.ctx.state.fastTransfers,
        }),
    },
    {
      // Test data in bulk: pending API transfers as the create endpoint would make them (sandbox, no webhook).
      method: "POST",
      pattern: /^\/_control\/transfers\/bulk$/,
      handler: (rc) => {
        const { orders, amount, currency } = parseWith(rc, bulkTransfersSchema)
        const bank = BANK_ACCOUNTS[0]
        const result = orders.map((order_id) => {
          const p = createPayment(rc.ctx, {
            kind: "bank_transfer_api",
            method: "bank_transfer",
            mode: "sandbox",
            api_id: rc.ctx.state.config.accesses[0].apiId,
            order_id,
            amount,
            currency,
          })
          attachTransfer(p, bank, "Bench Payer")
          return { order_id, uuid: p.uuid }
        })
        sendJson(rc.res, 200, { result })
      },
    },
    {
      method: "GET",
      pattern: /^\/_control\/payments\/(?<uuid>[^/]+)$/,
      handler: (rc) => sendJson(rc.res, 200, { result: fullRecord(findPayment(rc, rc.params.uuid)) }),
    },
    {
      method: "POST",
      pattern: /^\/_control\/payments\/(?<uuid>[^/]+)\/complete$/,
      handler: (rc) => {
        const p = findPayment(rc, rc.params.uuid)
        const { outcome } = parseWith(rc, z.object({ outcome: z.enum(["approve", "reject", "insufficient"]) }))
        const changed =
          outcome === "approve"
            ? finalize(rc.ctx, p, "successful")
            : finalize(rc.ctx, p, "failed", { message: outcome === "reject" ? MESSAGES.reject : MESSAGES.insufficient })
        sendJson(rc.res, 200, { ok: true, changed, result: fullRecord(p) })
      },
    },
    {
      method: "POST",
      pattern: /^\/_control\/transfers\/(?<uuid>[^/]+)\/settle$/,
      handler: (rc) => {
        const p = findPayment(rc, rc.params.uuid)
        if (!p.transfer) throw new HttpError(409, `Payment ${p.uuid} is not a bank transfer`)
        const { result } = parseWith(rc, z.object({ result: z.enum(["successful", "failed"]) }))
        const changed = finalize(rc.ctx, p, result, { message: MESSAGES.transferRejected })
        sendJson(rc.res, 200, { ok: true, changed, result: fullRecord(p) })
      },
    },
    {
      method: "POST",
      pattern: /^\/_control\/fast-transfer$/,
      handler: (rc) => {
        const body = parseWith(
          rc,
          z.object({
            sender_name: z.string().trim().min(1),
            amount: z.union([z.number(), z.string()]),
            currency: z.string().default("TRY"),
          })
        )
        const amount = parseLooseAmount(body.amount)
        if (!amount) throw new HttpError(400, `Invalid field "amount": must be a decimal amount`)
        const currency = body.currency.toUpperCase()
        const p = matchFastTransfer(rc.ctx, body.sender_name, amount, currency)
        rc.ctx.state.fastTransfers.push({
          sender_name: body.sender_name,
          amount,
          currency,
          time: new Date().toISOString(),
          matched_uuid: p?.uuid ?? null,
        })
        if (p) finalize(rc.ctx, p, "successful")
        sendJson(rc.res, 200, { ok: true, matched: Boolean(p), uuid: p?.uuid ?? null, result: p ? fullRecord(p) : null })
      },
    },
    {
      method: "GET",
      pattern: /^\/_control\/faults$/,
      handler: (rc) => sendJson(rc.res, 200, { result: rc.ctx.faults.faults }),
    },
    {
      method: "POST",
      pattern: /^\/_control\/faults$/,
      handler: (rc) => {
        const f = parseWith(rc, faultSchema)
        const fault = rc.ctx.faults.add(f.endpoint, f.mode, f.count, f.delayMs)
        sendJson(rc.res, 200, { ok: true, result: fault })
      },
    },
    {
      method: "DELETE",
      pattern: /^\/_control\/faults$/,
      handler: (rc) => {
        rc.ctx.faults.clear()
        sendJson(rc.res, 200, { ok: true })
      },
    },
    {
      method: "GET",
      pattern: /^\/_control\/webhooks$/,
      handler: (rc) =>
        sendJson(rc.res, 200, {
          settings: rc.ctx.webhooks.settings,
          queued: rc.ctx.webhooks.queuedCount,
          result: rc.ctx.webhooks.records,
        }),
    },
    {
      method: "POST",
      pattern: /^\/_control\/webhooks$/,
      handler: async (rc) => {
        const body = parseWith(rc, webhookSettingsSchema)
        const w = rc.ctx.webhooks
        const wasPaused = w.settings.paused
        Object.assign(w.settings, Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined)))
        // Un-pausing delivers what was held, like a flush.
        const flushed = wasPaused && !w.settings.paused ? await w.flush() : 0
        sendJson(rc.res, 200, { ok: true, settings: w.settings, flushed })
      },
    },
    {
      method: "POST",
      pattern: /^\/_control\/webhooks\/flush$/,
      handler: async (rc) => {
        const flushed = await rc.ctx.webhooks.flush()
        sendJson(rc.res, 200, { ok: true, flushed })
      },
    },
    {
      method: "POST",
      pattern: /^\/_control\/webhooks\/(?<id>\d+)\/resend$/,
      handler: (rc) => {
        const rec = rc.ctx.webhooks.resend(Number(rc.params.id))
        if (!rec) throw new HttpError(404, `Webhook ${rc.params.id} not found`)
        sendJson(rc.res, 200, { ok: true, result: rec })
      },
    },
    {
      method: "GET",
      pattern: /^\/_control\/requests$/,
      handler: (rc) => {
        const prefix = rc.query.get("path")
        const list = rc.ctx.state.requests.filter((r) => !prefix || r.path.startsWith(prefix))
        sendJson(rc.res, 200, { result: list })
      },
    },
    {
      method: "GET",
      pattern: /^\/_control\/requests\/counts$/,
      handler: (rc) => {
        const prefix = rc.query.get("path")
        const counts = [...rc.ctx.state.requestCounts].filter(([path]) => !prefix || path.startsWith(prefix))
        sendJson(rc.res, 200, { result: Object.fromEntries(counts) })
      },
    },
  ]
}
