import type { EmulatorContext } from "./context"
import { HttpError } from "./http-util"
import { gte, toTry } from "./money"
import type { RouteContext } from "./router"
import type { Payment } from "./types"

/** A payment visible to the calling key: sandbox and live records are separate (§5.1 rule 3). */
export function visible(rc: RouteContext, p: Payment | undefined): Payment | undefined {
  return p && p.mode === rc.access!.mode ? p : undefined
}

/** §8: a live amount whose TRY value is under the system minimum is refused. */
export function checkLiveMinimum(ctx: EmulatorContext, amount: string, currency: string): void {
  const tryValue = toTry(amount, currency, ctx.state.config.rates)
  if (tryValue === undefined) throw new HttpError(400, `No exchange rate configured for ${currency}`)
  if (!gte(tryValue, ctx.state.config.minimumAmountTry)) {
    throw new HttpError(400, `Amount ${amount} ${currency} (${tryValue} TRY) is below the minimum of ${ctx.state.config.minimumAmountTry} TRY`)
  }
}
