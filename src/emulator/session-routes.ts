import type { EmulatorContext } from "./context"
import { BANK_ACCOUNTS, MESSAGES } from "./fixtures"
import { HttpError, redirect, sendHtml } from "./http-util"
import { redirectTarget } from "./notifications"
import { resultPage, sessionPage, waitingPage } from "./pages"
import { attachTransfer, finalize } from "./payments"
import { formFields, type Route, type RouteContext } from "./router"
import type { Payment } from "./types"

/** The checkout pages of one payment (Quick and Hosted Checkout, card API `redirect_url`). */

export function sessionUrl(p: Payment, suffix = ""): string {
  return `/checkout/session/${encodeURIComponent(p.uuid)}${suffix}`
}

/** Sends the browser on for a final payment: redirect with §6.1 parameters, or the result page. */
function finish(rc: RouteContext, p: Payment): void {
  const target = redirectTarget(rc.ctx, p)
  if (target) redirect(rc.res, target)
  else sendHtml(rc.res, 200, resultPage(p))
}

function transferAllowed(ctx: EmulatorContext, p: Payment): boolean {
  return ctx.state.bankTransferAllowedOnPages && (p.kind === "quick_checkout" || p.kind === "hosted_checkout")
}

/** `choose`: card buttons and the transfer form; `waiting`: a transfer waiting for its money. */
type Step = "choose" | "waiting"

/**
 * A route on one of the payment's pages. A final payment only repeats its
 * redirect (it never changes again), and a payment on the other step is sent
 * to that step's page, whatever button an old tab still shows.
 */
function page(method: "GET" | "POST", suffix: string, step: Step, act: (rc: RouteContext, p: Payment) => void): Route {
  return {
    method,
    pattern: new RegExp(`^/checkout/session/(?<uuid>[^/]+)${suffix}$`),
    html: true,
    handler: (rc) => {
      const p = rc.ctx.state.payments.get(rc.params.uuid)
      if (!p || p.kind === "bank_transfer_api") throw new HttpError(404, "Payment session not found", true)
      if (p.status !== "pending") return finish(rc, p)
      if (step === "choose" && p.method === "bank_transfer") return redirect(rc.res, sessionUrl(p, "/waiting"))
      if (step === "waiting" && !p.transfer) return redirect(rc.res, sessionUrl(p))
      act(rc, p)
    },
  }
}

const CARD_OUTCOMES = {
  approve: ["successful", undefined],
  reject: ["failed", MESSAGES.reject],
  insufficient: ["failed", MESSAGES.insufficient],
} as const

export function sessionRoutes(): Route[] {
  return [
    page("GET", "", "choose", (rc, p) => sendHtml(rc.res, 200, sessionPage(p, { transfer: transferAllowed(rc.ctx, p), banks: BANK_ACCOUNTS }))),
    // §7: the three buttons of the sandbox card screen.
    page("POST", "/complete", "choose", (rc, p) => {
      const outcome = formFields(rc).outcome
      if (outcome !== "approve" && outcome !== "reject" && outcome !== "insufficient") {
        throw new HttpError(400, `Invalid field "outcome": must be approve, reject or insufficient`, true)
      }
      const [status, message] = CARD_OUTCOMES[outcome]
      finalize(rc.ctx, p, status, { method: "credit_card", message })
      finish(rc, p)
    }),
    // §4.2 rule 4: the customer picks transfer and gives the sender name on the page.
    page("POST", "/transfer", "choose", (rc, p) => {
      if (!transferAllowed(rc.ctx, p)) throw new HttpError(403, "Bank transfer is not enabled for this merchant", true)
      const f = formFields(rc)
      const sender = (f.sender_name ?? "").trim()
      if (!sender) throw new HttpError(400, `Missing required field "sender_name"`, true)
      const bank = BANK_ACCOUNTS.find((b) => String(b.bta_id) === String(f.bank_id ?? ""))
      if (!bank) throw new HttpError(400, `Invalid field "bank_id": not a known bank account`, true)
      attachTransfer(p, bank, sender)
      redirect(rc.res, sessionUrl(p, "/waiting"))
    }),
    page("GET", "/waiting", "waiting", (rc, p) => sendHtml(rc.res, 200, waitingPage(p))),
    page("POST", "/transfer/settle", "waiting", (rc, p) => {
      if (p.mode !== "sandbox") throw new HttpError(403, "Sandbox buttons are not available in live mode", true)
      const result = formFields(rc).result
      if (result !== "successful" && result !== "failed") {
        throw new HttpError(400, `Invalid field "result": must be successful or failed`, true)
      }
      finalize(rc.ctx, p, result, { message: MESSAGES.transferRejected })
      finish(rc, p)
    }),
  ]
}
