import { randomBytes, randomUUID } from "node:crypto"
import { normalizeBaseUrl } from "../client/checkout"
import { postQuickForm } from "./checkout-judge"
import { isSandboxMode, LiveKeyRefusal, looksLikeLiveKeyMessage, type ScenarioContext, serviceMessage, SkipScenario, StopRun } from "./context"
import { BANK_GROUP_LIST, BANK_LIST, SALE_STATUS, VERIFY_RESULT, VERIFY_SANDBOX_MODE } from "./expectations"
import { SPEC_ENDPOINTS, specPath } from "./spec-endpoints"
import { BankGroupListAnswer, BankListAnswer, VerifyAnswer } from "./spec-schemas"
import { control, createTransfer, field, need, type Outcome, queryUuid, type SharedState } from "./transfer-steps"

export { CONTRACT_CANCEL_URL, newSharedState, type SharedState } from "./transfer-steps"
export { judgeCheckoutAnswer } from "./checkout-judge"

export interface Scenario {
  id: string
  title: string
  run(ctx: ScenarioContext, shared: SharedState): Promise<void>
}

/** POST bank_transfer with `sandbox_result` = outcome; later scenarios use the transfer. */
function createScenario(outcome: Outcome, suffix: string): Scenario {
  return {
    id: `create_transfer_${outcome}`,
    title: `POST bank_transfer with sandbox_result=${outcome} (§4.5)`,
    async run(ctx, shared) {
      shared.transfers[outcome] = await createTransfer(ctx, shared, outcome, "create", suffix)
    },
  }
}

/** The uuid query of the transfer created with `outcome` answers its §3.1 sale_status. */
function uuidQueryScenario(outcome: Outcome): Scenario {
  return {
    id: `uuid_query_${outcome}`,
    title: `GET bank_transfer/uuid/{uuid} of the ${outcome} transfer: sale_status ${SALE_STATUS[outcome]} (§4.6)`,
    async run(ctx, shared) {
      await queryUuid(ctx, need(shared.transfers[outcome], `the ${outcome} transfer`), "uuid", outcome)
    },
  }
}

/** All scenarios, in the order they run (later ones use what earlier ones created). */
export const SCENARIOS: Scenario[] = [
  {
    id: "sandbox_key_guard",
    title: "control with sandbox_result on an unknown id: a sandbox key gets 'not found', a live key is refused (nothing is created)",
    async run(ctx) {
      const ans = await ctx.probe(
        "control_probe",
        "GET",
        `${SPEC_ENDPOINTS.control.template}?sandbox_result=…`,
        `${specPath(SPEC_ENDPOINTS.control, { payment_id: randomUUID() })}?sandbox_result=successful`
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
        template: SPEC_ENDPOINTS.bankGroups.template,
        path: specPath(SPEC_ENDPOINTS.bankGroups),
        schema: BankGroupListAnswer,
        schemaName: "BankGroupListAnswer (§4.3)",
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
          template: SPEC_ENDPOINTS.banks.template,
          path: specPath(SPEC_ENDPOINTS.banks, { bank_group_id: id }),
          schema: BankListAnswer,
          schemaName: "BankListAnswer (§4.4)",
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
  createScenario("successful", "ok"),
  {
    id: "verify_forged_hash",
    title: "POST sale/webhook/verify for the successful transfer with a forged hash: is_valid false (§4.8)",
    async run(ctx, shared) {
      const ref = need(shared.transfers.successful, "the successful transfer")
      const res = await ctx.json({
        name: "verify",
        method: "POST",
        template: SPEC_ENDPOINTS.verify.template,
        path: specPath(SPEC_ENDPOINTS.verify),
        body: { order_id: ref.order_id, uuid: ref.payment_id, status: "successful", hash: randomBytes(32).toString("hex") },
        schema: VerifyAnswer,
        schemaName: "VerifyAnswer (§4.8)",
        shape: VERIFY_RESULT,
      })
      ctx.check("is_valid (forged hash)", false, field(res, "is_valid"))
      ctx.check("hash_match (forged hash)", false, field(res, "hash_match"))
      ctx.check("official_status (successful sandbox transfer)", "successful", field(res, "official_status"))
      // The plugin pays only on an answer that itself names the notification's order and payment.
      ctx.check("order_id echoed", ref.order_id, field(res, "order_id"))
      ctx.check("uuid echoed", ref.payment_id, field(res, "uuid"))
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
  createScenario("pending", "pending"),
  createScenario("failed", "failed"),
  uuidQueryScenario("successful"),
  uuidQueryScenario("pending"),
  uuidQueryScenario("failed"),
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
      const { form, res, verdict } = await postQuickForm(ctx, shared, "qc", "checkout_quick")
      ctx.check("form action", `${normalizeBaseUrl(ctx.target.baseUrl)}${SPEC_ENDPOINTS.quickCheckout.template}`, form.action)
      ctx.check("signed form accepted (2xx/3xx without an error)", true, verdict.accepted)
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
      const { res } = await postQuickForm(ctx, shared, "qc-tampered", "checkout_quick_tampered", (sig) => {
        const last = sig.slice(-1)
        return sig.slice(0, -1) + (last === "a" ? "b" : "a")
      })
      ctx.check("tampered signature refused with 4xx", "4xx", `HTTP ${res.status}`, res.status >= 400 && res.status < 500)
    },
  },
]
