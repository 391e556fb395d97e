import { randomBytes, randomUUID } from "node:crypto"
import { amountsEqual } from "../client/amount"
import { buildQuickCheckoutForm, normalizeBaseUrl } from "../client/checkout"
import { ODEME_ENDPOINTS } from "../client/odeme-client"
import {
  BankGroupListResponseSchema,
  BankListResponseSchema,
  CreateBankTransferResultSchema,
  TransferRecordResponseSchema,
  VerifyResultSchema,
} from "../client/schemas"
import {
  isSandboxMode,
  LiveKeyRefusal,
  looksLikeLiveKeyMessage,
  ScenarioContext,
  ScenarioFailure,
  serviceMessage,
  SkipScenario,
  StopRun,
  type FormStepResult,
} from "./context"
import {
  BANK_GROUP_LIST,
  BANK_LIST,
  CREATE_MESSAGE,
  CREATE_TRANSFER,
  SALE_STATUS,
  TRANSFER_RECORD,
  VERIFY_RESULT,
  VERIFY_SANDBOX_MODE,
} from "./expectations"

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

export interface Scenario {
  id: string
  title: string
  run(ctx: ScenarioContext, shared: SharedState): Promise<void>
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

const EP = ODEME_ENDPOINTS

function orderId(shared: SharedState, suffix: string): string {
  return `contract-${shared.runId}-${suffix}`
}

function field(res: { raw: unknown; data: unknown }, key: string): unknown {
  const src = (res.data ?? res.raw) as Record<string, unknown> | undefined
  return src && typeof src === "object" ? src[key] : undefined
}

function need<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new SkipScenario(`needs ${what}, which an earlier scenario did not produce`)
  return value
}

async function createTransfer(
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
    template: EP.createBankTransfer.template,
    path: EP.createBankTransfer.template,
    body: {
      bank_id: bankId,
      amount: CONTRACT_AMOUNT,
      currency: CONTRACT_CURRENCY,
      order_id: order,
      ...CONTRACT_CUSTOMER,
      sandbox_result: outcome,
    },
    schema: CreateBankTransferResultSchema,
    schemaName: "CreateBankTransferResultSchema",
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

async function queryUuid(ctx: ScenarioContext, ref: TransferRef, stepName: string, expected: Outcome) {
  const res = await ctx.json({
    name: stepName,
    method: "GET",
    template: EP.getTransferByUuid.template,
    path: `/api/pay/bank_transfer/uuid/${encodeURIComponent(ref.payment_id)}`,
    schema: TransferRecordResponseSchema,
    schemaName: "TransferRecordResponseSchema",
    shape: TRANSFER_RECORD,
  })
  const rec = recordOf(res)
  ctx.check(`${stepName}: sale_status`, SALE_STATUS[expected], rec.sale_status)
  checkAmount(ctx, stepName, rec)
  if (rec.br_tracking_no !== undefined && rec.br_tracking_no !== null && String(rec.br_tracking_no) !== "") {
    ref.tracking_no = String(rec.br_tracking_no)
  }
  return rec
}

function checkAmount(ctx: ScenarioContext, stepName: string, rec: Record<string, unknown>): void {
  let same = false
  try {
    same = amountsEqual(rec.br_price as never, CONTRACT_AMOUNT)
  } catch {
    same = false
  }
  ctx.check(`${stepName}: br_price`, Number(CONTRACT_AMOUNT), rec.br_price, same)
  ctx.check(`${stepName}: br_currency`, CONTRACT_CURRENCY, rec.br_currency)
}

async function control(
  ctx: ScenarioContext,
  ref: TransferRef,
  stepName: string,
  expected: Outcome,
  sandboxResult?: "successful" | "failed"
) {
  const tracking = need(ref.tracking_no, "the transfer's br_tracking_no")
  const query = sandboxResult ? `?sandbox_result=${sandboxResult}` : ""
  const res = await ctx.json({
    name: stepName,
    method: "GET",
    template: `${EP.getTransferByTrackingNo.template}${query ? "?sandbox_result=…" : ""}`,
    path: `/api/pay/bank_transfer/control/${encodeURIComponent(tracking)}${query}`,
    schema: TransferRecordResponseSchema,
    schemaName: "TransferRecordResponseSchema",
    shape: TRANSFER_RECORD,
  })
  const rec = recordOf(res)
  ctx.check(`${stepName}: sale_status`, SALE_STATUS[expected], rec.sale_status)
  ctx.check(`${stepName}: br_tracking_no echoed`, tracking, rec.br_tracking_no === undefined ? undefined : String(rec.br_tracking_no))
  return rec
}

// ------------------------------------------------------------------ Quick Checkout judgement

const ERROR_PAGE_RE =
  /id=["']error["']|<title>[^<]*(?:hata|error)[^<]*<\/title>|invalid signature|signature (?:is )?(?:invalid|expired|mismatch)|ge[çc]ersiz imza|imza (?:ge[çc]ersiz|hatal[ıi]|do[ğg]rulanamad[ıi])|request refused|istek reddedildi/i

function maskIds(text: string): string {
  return text.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, "{uuid}").replace(/\d{6,}/g, "{n}")
}

function samePage(a: URL, b: URL): boolean {
  return a.origin === b.origin && a.pathname.replace(/\/+$/, "") === b.pathname.replace(/\/+$/, "")
}

/**
 * Did the service accept the Quick Checkout POST? Accepted: a 2xx page that
 * does not show an error, or a 3xx that does not lead to `cancel_url` or
 * carry `status=error`.
 */
export function judgeCheckoutAnswer(
  res: FormStepResult,
  baseUrl: string,
  cancelUrl: string
): { accepted: boolean; how: string } {
  if (res.status >= 300 && res.status < 400) {
    if (!res.location) return { accepted: false, how: `HTTP ${res.status} without a Location header` }
    let loc: URL
    try {
      loc = new URL(res.location, `${baseUrl}/`)
    } catch {
      return { accepted: false, how: `HTTP ${res.status} to an unreadable Location` }
    }
    const shown = maskIds(`${loc.origin === new URL(baseUrl).origin ? "" : loc.origin}${loc.pathname}`)
    if (samePage(loc, new URL(cancelUrl)) || loc.searchParams.get("status") === "error") {
      const msg = loc.searchParams.get("message")
      return { accepted: false, how: `HTTP ${res.status} to ${shown} with status=error${msg ? ` (${msg})` : ""}` }
    }
    if (/\b(?:error|hata)\b/i.test(loc.pathname)) return { accepted: false, how: `HTTP ${res.status} to an error page ${shown}` }
    return { accepted: true, how: `HTTP ${res.status} redirect to ${shown}` }
  }
  if (res.status >= 200 && res.status < 300) {
    const m = ERROR_PAGE_RE.exec(res.text)
    if (m) return { accepted: false, how: `HTTP ${res.status} page that shows an error (matched "${m[0].slice(0, 60)}")` }
    return { accepted: true, how: `HTTP ${res.status} page (${res.contentType.split(";")[0] || "no content type"})` }
  }
  const msg = serviceMessage(res.text)
  return { accepted: false, how: `HTTP ${res.status}${msg ? `: ${msg.slice(0, 160)}` : ""}` }
}

function quickForm(ctx: ScenarioContext, shared: SharedState, suffix: string) {
  return buildQuickCheckoutForm({
    baseUrl: ctx.target.baseUrl,
    apiId: ctx.target.apiId,
    apiKey: ctx.target.apiKey,
    amount: CONTRACT_AMOUNT,
    currency: CONTRACT_CURRENCY,
    orderId: orderId(shared, suffix),
    description: "Odeme contract test",
    successUrl: CONTRACT_SUCCESS_URL,
    cancelUrl: CONTRACT_CANCEL_URL,
  })
}

const QUICK_PATH = "/checkout/quick"

// ------------------------------------------------------------------ scenarios

/** All scenarios, in the order they run (later ones use what earlier ones created). */
export const SCENARIOS: Scenario[] = [
  {
    id: "sandbox_key_guard",
    title: "control with sandbox_result on an unknown id: a sandbox key gets 'not found', a live key is refused (nothing is created)",
    async run(ctx) {
      const ans = await ctx.probe(
        "control_probe",
        "GET",
        `${EP.getTransferByTrackingNo.template}?sandbox_result=…`,
        `/api/pay/bank_transfer/control/${randomUUID()}?sandbox_result=successful`
      )
      const msg = serviceMessage(ans.text)
      if (looksLikeLiveKeyMessage(msg)) {
        ctx.check("sandbox_result accepted for this key", "not refused as live", `HTTP ${ans.status}: ${ctx.clean(msg ?? "", 160)}`, false)
        throw new LiveKeyRefusal(
          `the service refused sandbox_result for this key (HTTP ${ans.status}: ${ctx.clean(msg ?? "", 160)}); this is a live API key`
        )
      }
      if (ans.status === 401 || ans.status === 403) {
        ctx.check("API key accepted", "not 401/403", ans.status, false)
        throw new StopRun(`the service rejected the API key (HTTP ${ans.status}${msg ? `: ${ctx.clean(msg, 160)}` : ""})`)
      }
      ctx.check("sandbox_result accepted for this key", "not refused as live", `HTTP ${ans.status}`, true)
      if (ans.status >= 500) ctx.note(`the probe answered HTTP ${ans.status}; later scenarios will show whether the service works`)
    },
  },
  {
    id: "bank_groups",
    title: "GET bank-group/list (§4.3)",
    async run(ctx, shared) {
      const res = await ctx.json({
        name: "bank_groups",
        method: "GET",
        template: EP.listBankGroups.template,
        path: EP.listBankGroups.template,
        schema: BankGroupListResponseSchema,
        schemaName: "BankGroupListResponseSchema",
        shape: BANK_GROUP_LIST,
      })
      const list = field(res, "result")
      const groups = Array.isArray(list) ? (list as Array<Record<string, unknown>>) : []
      ctx.check("at least one bank group", true, groups.length > 0)
      shared.groupIds = groups.map((g) => Number(g.id)).filter((n) => Number.isSafeInteger(n) && n >= 0)
    },
  },
  {
    id: "banks",
    title: "GET get/banks/{bank_group_id} (§4.4) for the groups until one has accounts",
    async run(ctx, shared) {
      if (shared.groupIds.length === 0) throw new SkipScenario("needs a bank group id, which bank_groups did not produce")
      for (const id of shared.groupIds.slice(0, 5)) {
        const res = await ctx.json({
          name: `banks_of_group_${id}`,
          method: "GET",
          template: EP.listBanks.template,
          path: `/api/pay/bank_transfer/get/banks/${id}`,
          schema: BankListResponseSchema,
          schemaName: "BankListResponseSchema",
          shape: BANK_LIST,
        })
        const list = field(res, "result")
        const first = Array.isArray(list) ? (list[0] as Record<string, unknown> | undefined) : undefined
        const bankId = first ? Number(first.bta_id) : NaN
        if (Number.isSafeInteger(bankId) && bankId > 0) {
          shared.bankId = bankId
          break
        }
      }
      ctx.check("a bank account (bta_id) in the first groups", true, shared.bankId !== undefined)
    },
  },
  {
    id: "create_transfer_successful",
    title: "POST bank_transfer with sandbox_result=successful (§4.5)",
    async run(ctx, shared) {
      shared.transfers.successful = await createTransfer(ctx, shared, "successful", "create", "ok")
    },
  },
  {
    id: "verify_forged_hash",
    title: "POST sale/webhook/verify for the successful transfer with a forged hash: is_valid false (§4.8)",
    async run(ctx, shared) {
      const ref = need(shared.transfers.successful, "the successful transfer")
      const res = await ctx.json({
        name: "verify",
        method: "POST",
        template: EP.verifyNotification.template,
        path: EP.verifyNotification.template,
        body: { order_id: ref.order_id, uuid: ref.payment_id, status: "successful", hash: randomBytes(32).toString("hex") },
        schema: VerifyResultSchema,
        schemaName: "VerifyResultSchema",
        shape: VERIFY_RESULT,
      })
      ctx.check("is_valid (forged hash)", false, field(res, "is_valid"))
      ctx.check("hash_match (forged hash)", false, field(res, "hash_match"))
      ctx.check("official_status (successful sandbox transfer)", "successful", field(res, "official_status"))
      const mode = field(res, "mode")
      if (mode !== undefined && mode !== null) {
        const sandboxLike = isSandboxMode(mode)
        ctx.check("mode is sandbox-like", VERIFY_SANDBOX_MODE, mode, sandboxLike)
        if (!sandboxLike) {
          throw new LiveKeyRefusal(
            `verify answered mode ${JSON.stringify(mode)} for a transfer created with sandbox_result; the key may be a live key`
          )
        }
      }
    },
  },
  {
    id: "create_transfer_pending",
    title: "POST bank_transfer with sandbox_result=pending (§4.5)",
    async run(ctx, shared) {
      shared.transfers.pending = await createTransfer(ctx, shared, "pending", "create", "pending")
    },
  },
  {
    id: "create_transfer_failed",
    title: "POST bank_transfer with sandbox_result=failed (§4.5)",
    async run(ctx, shared) {
      shared.transfers.failed = await createTransfer(ctx, shared, "failed", "create", "failed")
    },
  },
  {
    id: "uuid_query_successful",
    title: "GET bank_transfer/uuid/{uuid} of the successful transfer: sale_status 1 (§4.6)",
    async run(ctx, shared) {
      await queryUuid(ctx, need(shared.transfers.successful, "the successful transfer"), "uuid", "successful")
    },
  },
  {
    id: "uuid_query_pending",
    title: "GET bank_transfer/uuid/{uuid} of the pending transfer: sale_status 0 (§4.6)",
    async run(ctx, shared) {
      await queryUuid(ctx, need(shared.transfers.pending, "the pending transfer"), "uuid", "pending")
    },
  },
  {
    id: "uuid_query_failed",
    title: "GET bank_transfer/uuid/{uuid} of the failed transfer: sale_status 2 (§4.6)",
    async run(ctx, shared) {
      await queryUuid(ctx, need(shared.transfers.failed, "the failed transfer"), "uuid", "failed")
    },
  },
  {
    id: "control_query_pending",
    title: "GET bank_transfer/control/{br_tracking_no} of the pending transfer: sale_status 0 (§4.6)",
    async run(ctx, shared) {
      await control(ctx, need(shared.transfers.pending, "the pending transfer"), "control", "pending")
    },
  },
  {
    id: "control_moves_pending_to_successful",
    title: "GET control/{br_tracking_no}?sandbox_result=successful moves the pending transfer to 1 (§3.1)",
    async run(ctx, shared) {
      const ref = need(shared.transfers.pending, "the pending transfer")
      await control(ctx, ref, "control", "successful", "successful")
      await queryUuid(ctx, ref, "uuid_after", "successful")
    },
  },
  {
    id: "control_moves_pending_to_failed",
    title: "a new pending transfer; GET control/{br_tracking_no}?sandbox_result=failed moves it to 2 (§3.1)",
    async run(ctx, shared) {
      const ref = await createTransfer(ctx, shared, "pending", "create", "pending2")
      await queryUuid(ctx, ref, "uuid_before", "pending")
      await control(ctx, ref, "control", "failed", "failed")
      await queryUuid(ctx, ref, "uuid_after", "failed")
    },
  },
  {
    id: "quick_checkout_accepted",
    title: "POST the signed form of buildQuickCheckoutForm to /checkout/quick: accepted (§4.2, §5.2)",
    async run(ctx, shared) {
      const form = quickForm(ctx, shared, "qc")
      ctx.check("form action", `${normalizeBaseUrl(ctx.target.baseUrl)}${QUICK_PATH}`, form.action)
      const res = await ctx.form("checkout_quick", QUICK_PATH, QUICK_PATH, form.fields)
      const verdict = judgeCheckoutAnswer(res, ctx.target.baseUrl, CONTRACT_CANCEL_URL)
      ctx.check("signed form accepted (2xx/3xx without an error)", true, verdict.accepted)
      ctx.note(`answered: ${verdict.how}`)
      if (!verdict.accepted && (res.status === 403 || /ip/i.test(verdict.how))) {
        ctx.note("a 403 here usually means the access has an IP restriction; Quick Checkout needs api_ip 0.0.0.0 (§4.2 rule 6)")
      }
      if (!verdict.accepted && res.status === 401) {
        ctx.note("the signature was refused: check that ODEME_CONTRACT_API_ID belongs to ODEME_CONTRACT_API_KEY")
      }
    },
  },
  {
    id: "quick_checkout_tampered_signature",
    title: "POST the same form with one signature character changed: refused with 4xx",
    async run(ctx, shared) {
      const form = quickForm(ctx, shared, "qc-tampered")
      const sig = form.fields.signature
      const last = sig.slice(-1)
      const fields = { ...form.fields, signature: sig.slice(0, -1) + (last === "a" ? "b" : "a") }
      const res = await ctx.form("checkout_quick_tampered", QUICK_PATH, QUICK_PATH, fields)
      const verdict = judgeCheckoutAnswer(res, ctx.target.baseUrl, CONTRACT_CANCEL_URL)
      ctx.check("tampered signature refused with 4xx", "4xx", `HTTP ${res.status}`, res.status >= 400 && res.status < 500)
      ctx.note(`answered: ${verdict.how}`)
    },
  },
]
