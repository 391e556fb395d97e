import type { AdminOdemePayment, AttentionKind, TimelineKind } from "../lib/odeme-api"

export type BadgeColor = "green" | "red" | "blue" | "orange" | "grey" | "purple"

export function stateColor(state: AdminOdemePayment["state"]): BadgeColor {
  switch (state) {
    case "paid":
      return "green"
    case "awaiting_transfer":
    case "pending":
      return "orange"
    case "failed":
    case "expired":
      return "red"
    case "review":
    case "unknown":
      return "purple"
    case "canceled":
    default:
      return "grey"
  }
}

export function kindColor(kind: TimelineKind): BadgeColor {
  switch (kind) {
    case "result":
      return "green"
    case "verified":
      return "blue"
    case "error":
      return "red"
    case "duplicate":
      return "grey"
    case "received":
    default:
      return "orange"
  }
}

export function attentionColor(kind: AttentionKind): BadgeColor {
  switch (kind) {
    case "duplicate_charge":
    case "refund_due":
    case "unconfirmed_return":
    case "processing":
      return "red"
    case "stuck":
    case "dead_notification":
      return "orange"
    case "unknown_outcome":
    case "review":
    default:
      return "purple"
  }
}

export function formatMoney(amount: string | null, currency: string | null, locale?: string): string {
  if (!amount) return "–"
  if (!currency) return amount
  try {
    return new Intl.NumberFormat(locale, { style: "currency", currency: currency.toUpperCase() }).format(Number(amount))
  } catch {
    return `${amount} ${currency.toUpperCase()}`
  }
}

export function formatTime(at: string | null, locale?: string): string {
  if (!at) return "–"
  const d = new Date(at)
  return Number.isNaN(d.getTime()) ? at : d.toLocaleString(locale)
}
