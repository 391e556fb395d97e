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
