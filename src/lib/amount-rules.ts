import { MedusaError } from "@medusajs/framework/utils"
import { odemeError } from "./medusa-errors"
import { formatAmount, toDecimalString, toMinorUnits, type AmountInput } from "../client/amount"
import type { OdemeOptions } from "./options"

export interface CheckedAmount {
  /** Two decimals, as sent to the service. */
  amount: string
  /** Upper-case ISO code. */
  currency: string
}

/**
 * Validates a session's amount and currency before anything is sent:
 * supported currency, positive, at most two decimals' worth of value after
 * rounding, and (live mode) the TRY minimum of spec §8, converted with the
 * configured rate for other currencies.
 */
export function chargeableAmount(
  input: { amount: AmountInput; currency_code: string },
  allowed: readonly string[],
  options: OdemeOptions,
  what: string
): CheckedAmount {
  const currency = String(input.currency_code ?? "").toUpperCase()
  if (!allowed.includes(currency)) {
    throw odemeError(
      MedusaError.Types.INVALID_DATA,
      "odeme.currency_unsupported",
      `${what} supports ${allowed.join(", ")}; this cart is in ${currency || "an unknown currency"}.`
    )
  }
  let amount: string
  try {
    amount = formatAmount(input.amount)
  } catch {
    throw odemeError(MedusaError.Types.INVALID_DATA, "odeme.amount_invalid", `${what}: the amount is not a number.`)
  }
  if (toMinorUnits(amount) <= 0n) {
    throw odemeError(MedusaError.Types.INVALID_DATA, "odeme.amount_invalid", `${what}: the amount must be greater than zero.`)
  }
  if (options.mode === "live" && options.minimumAmountTry) {
    const rate = currency === "TRY" ? "1" : options.exchangeRatesTry[currency]
    // Without a configured rate the service itself applies its minimum (spec §8).
    if (rate) {
      const tryCents = (toMinorUnits(amount) * toScaled(rate)) / SCALE
      if (tryCents < toMinorUnits(options.minimumAmountTry)) {
        throw odemeError(
          MedusaError.Types.INVALID_DATA,
          "odeme.amount_below_minimum",
          `${what}: the amount ${amount} ${currency} is below the minimum of ${formatAmount(options.minimumAmountTry)} TRY.`
        )
      }
    }
  }
  return { amount, currency }
}

const SCALE = 1_000_000n

/** A decimal rate as an integer scaled by 10^6, exactly. */
function toScaled(rate: string): bigint {
  const [i, f = ""] = toDecimalString(rate).split(".")
  return BigInt(i + (f + "000000").slice(0, 6))
}

/**
 * Whether a session's money may still change: only a transfer session whose transfer was not created. A Quick
 * Checkout session signs its amount into the form it hands out when it starts, and a notification that names no
 * amount is judged at that amount (docs/decisions.md, intake), so it keeps it; so does any payment that moved on.
 */
export function amountMayChange(row: { status: string; provider: string; creation_state: string }): boolean {
  return row.status === "pending" && row.provider === "odeme-transfer" && (row.creation_state === "none" || row.creation_state === "failed")
}

/** Whether Medusa's amount and currency are the ones a session recorded (two decimals, as sent to the service). */
export function sameMoney(row: { amount: string; currency: string }, input: { amount?: AmountInput; currency_code?: string }): boolean {
  if (input.amount === undefined || input.currency_code === undefined) return true
  try {
    return toMinorUnits(input.amount) === toMinorUnits(row.amount) && input.currency_code.toUpperCase() === row.currency.toUpperCase()
  } catch {
    return false
  }
}
