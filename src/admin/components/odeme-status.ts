import type { AdminOdemePayment, TimelineKind } from "../lib/odeme-api"

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

export const KIND_LABELS: Record<TimelineKind, string> = {
  received: "Received",
  verified: "Verified",
  result: "Result",
  duplicate: "Duplicate",
  error: "Error",
}

export const PROVIDER_LABELS: Record<string, string> = {
  "odeme-transfer": "Odeme bank transfer",
  "odeme-checkout": "Odeme Quick Checkout",
}

export function formatMoney(amount: string | null, currency: string | null): string {
  if (!amount) return "–"
  const n = Number(amount)
  if (!currency) return amount
  try {
    return new Intl.NumberFormat(undefined, { style: "currency", currency: currency.toUpperCase() }).format(n)
  } catch {
    return `${amount} ${currency.toUpperCase()}`
  }
}

export function formatTime(at: string | null): string {
  if (!at) return "–"
  const d = new Date(at)
  return Number.isNaN(d.getTime()) ? at : d.toLocaleString()
}
