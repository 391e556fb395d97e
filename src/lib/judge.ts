import { serviceCurrency, toMinorUnits } from "../client/amount"
import type { TransferRecord, VerifyResult } from "../client"
import type { OdemeOptions } from "./options"
import { serviceOrderId } from "./order-reference"
import type { ServiceAnswer } from "./payment-state/transitions"

export interface NotificationFacts {
  order_id: string
  uuid: string
  status: string
  amount?: string | number | null
  currency?: string | null
}

export interface ExpectedPayment {
  session_id: string
  /** The `order_id` the service knows the payment by (src/lib/order-reference.ts); absent or null: the session id. */
  reference?: string | null
  amount: string
  currency: string
}

/**
 * What a verified notification says about a session (spec §6.2 rules 2–3),
 * as an answer for the transition table: paid only when the verify endpoint
 * says `is_valid` and `official_status: successful` AND the notification is
 * about this session, for its amount and currency. An answer about another
 * order or payment, or from the sandbox for a live store, says nothing about
 * this one. Pure, so every rule is unit-tested.
 */
export function judgeNotification(
  n: NotificationFacts & { type?: string | null },
  verify: Pick<VerifyResult, "is_valid" | "official_status"> & Partial<Pick<VerifyResult, "order_id" | "uuid" | "mode">>,
  expected: ExpectedPayment,
  options: Pick<OdemeOptions, "checkout" | "exchangeRatesTry"> & Partial<Pick<OdemeOptions, "mode">>
): ServiceAnswer {
  if (!verify.is_valid) return { kind: "invalid", reason: "the verify endpoint answered is_valid: false" }
  // The answer must itself name the notification's order and payment: an answer that names neither could be
  // about any payment, and the safety of paying would rest on the service binding them silently.
  if (verify.order_id == null || String(verify.order_id).trim() !== n.order_id) {
    return { kind: "invalid", reason: `verify answered for order ${verify.order_id ?? "(none)"}, not ${n.order_id}` }
  }
  if (verify.uuid == null || String(verify.uuid).trim() !== n.uuid) {
    return { kind: "invalid", reason: `verify answered for payment ${verify.uuid ?? "(none)"}, not ${n.uuid}` }
  }
  if (n.order_id !== serviceOrderId(expected)) {
    const known = expected.reference ? ` (${expected.reference})` : ""
    return { kind: "invalid", reason: `notification is for ${n.order_id}, not session ${expected.session_id}${known}` }
  }
  const official = String(verify.official_status ?? "").toLowerCase()
  const type = n.type ?? null
  // Checked once the answer is known to be about this payment: a sandbox success for a live store is the merchant's
  // key, and leaves an item (a sandbox failure or wait changes nothing, as from the right key).
  if (options.mode === "live" && String(verify.mode ?? "").toLowerCase() === "sandbox") {
    return official === "successful"
      ? { kind: "sandbox_paid", uuid: n.uuid, type }
      : { kind: "invalid", reason: "the verify endpoint answered in sandbox mode for a live store" }
  }
  if (official === "failed") return { kind: "failed", uuid: n.uuid, type }
  if (official !== "successful") return { kind: "pending", uuid: n.uuid }

  // A field the notification leaves out (or sends as null or "") is the session's own (docs/decisions.md, intake):
  // the service charges the amount the plugin signed into the session's form, and verify proved the payment is
  // this session's. A field that is there is compared, whatever it holds.
  const told = {
    amount: absent(n.amount) ? expected.amount : String(n.amount),
    currency: absent(n.currency) ? expected.currency : serviceCurrency(String(n.currency)),
  }
  const problem = amountProblem(told, expected, options)
  if (problem) return { kind: "mismatch", uuid: n.uuid, amount: told.amount, currency: told.currency, reason: problem, type }
  return { kind: "paid", uuid: n.uuid, amount: told.amount, currency: told.currency, type }
}

const absent = (v: unknown) => v === undefined || v === null || (typeof v === "string" && v.trim() === "")

function amountProblem(
  n: { amount: string; currency: string },
  expected: ExpectedPayment,
  options: Pick<OdemeOptions, "checkout" | "exchangeRatesTry">
): string | null {
  let paid: bigint
  try {
    paid = toMinorUnits(n.amount)
  } catch {
    return `the notification amount "${String(n.amount).slice(0, 30)}" is not a number`
  }
  const currency = n.currency.toUpperCase()
  const want = toMinorUnits(expected.amount)
  if (currency === expected.currency.toUpperCase()) return moneyMismatch(n.amount, currency, expected)
  // Variant A (spec §4.2 rule 3): the service converted a non-TRY amount to TRY.
  if (options.checkout.currencyVariant === "A" && currency === "TRY") {
    const rate = options.exchangeRatesTry[expected.currency.toUpperCase()]
    if (!rate) return `no exchange rate configured for ${expected.currency} to check a TRY confirmation`
    const converted = Number(want) * Number(rate)
    const tolerance = (converted * options.checkout.conversionTolerancePercent) / 100
    return Math.abs(Number(paid) - converted) <= tolerance
      ? null
      : `TRY amount ${n.amount} is not within ${options.checkout.conversionTolerancePercent}% of ${expected.amount} ${expected.currency} converted`
  }
  return `currency ${currency} differs from the session's ${expected.currency}`
}

/**
 * Exact match of what the service reports with what the session expects,
 * after rounding both to two decimals; null when they match. Used for
 * verified notifications and for the transfer record of the uuid endpoint,
 * so every path that can pay applies the same check.
 */
export function moneyMismatch(
  amount: string | number | null | undefined,
  currency: string | null | undefined,
  expected: { amount: string; currency: string }
): string | null {
  let paid: bigint
  try {
    paid = toMinorUnits(amount as string | number)
  } catch {
    return `the reported amount "${String(amount).slice(0, 30)}" is not a number`
  }
  if (!currency || currency.toUpperCase() !== expected.currency.toUpperCase()) {
    return `currency ${currency ?? "(none)"} differs from the session's ${expected.currency}`
  }
  return paid === toMinorUnits(expected.amount)
    ? null
    : `amount ${amount} ${currency.toUpperCase()} differs from the session's ${expected.amount} ${expected.currency}`
}

/** Spec §3.1 (0 pending, 1 approved, 2 cancelled/failed) checked against the session's money. */
export function transferAnswer(record: TransferRecord, payment: { service_uuid: string | null; amount: string; currency: string }): ServiceAnswer {
  const uuid = payment.service_uuid!
  switch (record.sale_status) {
    case 1: {
      const mismatch = moneyMismatch(record.br_price, record.br_currency, payment)
      const amount = String(record.br_price)
      const currency = String(record.br_currency ?? "").toUpperCase()
      if (mismatch) return { kind: "mismatch", uuid, amount, currency, reason: `transfer record: ${mismatch}`, type: "bank_transfer" }
      return { kind: "paid", uuid, amount, currency, type: "bank_transfer" }
    }
    case 2:
      return { kind: "failed", uuid, type: "bank_transfer" }
    default:
      return { kind: "pending", uuid }
  }
}
