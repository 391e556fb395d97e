import type { TFunction } from "i18next"
import type { AdminOdemePayment, AttentionItem, CheckResult, ConnectionCheck, LastCheck, TimelineEvent } from "../lib/odeme-api"
import { formatMoney } from "./odeme-status"

/**
 * The server sends codes; these turn them into the admin user's language.
 * Unknown codes (a newer server) fall back to a neutral sentence naming the
 * code rather than to nothing.
 */
type T = TFunction

export function stateLabel(t: T, state: string): string {
  return t(`odeme.states.${state}`, { defaultValue: t("odeme.states.other", { state }) })
}

export function providerLabel(t: T, provider: string): string {
  return t(`odeme.providers.${provider}`, { defaultValue: t("odeme.providers.other") })
}

export function flowLabel(t: T, p: Pick<AdminOdemePayment, "flow" | "provider">): string {
  if (p.flow) return t(`odeme.flows.${p.flow}`, { defaultValue: t("odeme.flows.unknown") })
  // A checkout session before the customer chose card or transfer on the service's page.
  if (p.provider === "odeme-checkout") return t("odeme.flows.checkout_unchosen")
  if (p.provider === "odeme-transfer") return t("odeme.flows.transfer_api")
  return t("odeme.flows.unknown")
}

export function modeLabel(t: T, mode: string): string {
  return mode === "live" ? t("odeme.common.live") : t("odeme.common.sandbox")
}

export function timelineText(t: T, e: TimelineEvent): string {
  const p = e.params ?? {}
  switch (e.code) {
    case "received": {
      const status = p.status ? chargeStatusLabel(t, String(p.status)) : "–"
      // A redirect is the customer's browser coming back, not a notification from the service.
      return e.source === "return" ? t("odeme.timeline.received_return", { status }) : t("odeme.timeline.received", { status })
    }
    case "last_check":
      return checkEventText(t, e)
    case "duplicates":
    case "dead":
    case "retry":
      return t(`odeme.timeline.${e.code}`, { count: Number(p.count ?? 0) })
    case "verified":
      return t(`odeme.timeline.verified_${p.valid === "yes" || p.valid === "no" ? p.valid : "unknown"}`, {
        official_status: p.official_status ? chargeStatusLabel(t, String(p.official_status)) : "–",
      })
    case "error":
      return t("odeme.timeline.error")
    default:
      return t(`odeme.timeline.${e.code}`, { defaultValue: t("odeme.timeline.outcome_other", { outcome: p.outcome ?? e.code }) })
  }
}

/**
 * The status check event: what the service said, and whether it was a check
 * at all. Medusa's own read of a transfer when it authorizes it is counted as
 * no check, so before the first check nothing is called the last check; a
 * check that got no answer says so; a transfer's creation is said as such.
 */
function checkEventText(t: T, e: TimelineEvent): string {
  const p = e.params ?? {}
  if (p.result === "created") return t("odeme.timeline.outcome_created")
  const params = Object.fromEntries(Object.entries(p).filter(([, v]) => typeof v === "string")) as Record<string, string>
  const result =
    typeof p.result === "string" ? lastCheckText(t, { code: p.result as LastCheck["code"], failed: false, params }) : t("odeme.lastCheck.other")
  if (e.kind === "error") return t("odeme.timeline.check_failed", { reason: result })
  const count = Number(p.count ?? 0)
  if (count === 0) return t("odeme.timeline.status_read", { result })
  return `${t("odeme.timeline.last_check", { count })}: ${result}`
}

/** The label of a payment's last status line: a check, or (before the first check) the status the service was read with. */
export function lastCheckLabel(t: T, p: Pick<AdminOdemePayment, "check_attempts" | "last_check">): string {
  return p.check_attempts > 0 || p.last_check?.failed ? t("odeme.widget.lastCheck") : t("odeme.widget.statusRead")
}

/** Whose payment an item is and how much, in one line: "Ayşe Yılmaz · ayse@example.com · ₺300,00". */
export function attentionWho(item: Pick<AttentionItem, "customer" | "amount" | "currency">, locale?: string): string {
  const money = item.amount ? formatMoney(item.amount, item.currency, locale) : null
  return [item.customer?.name, item.customer?.email, money].filter(Boolean).join(" · ")
}

export function attentionTitle(t: T, item: Pick<AttentionItem, "code"> & { count?: number | null }): string {
  return t(`odeme.attention.codes.${item.code}`, {
    count: item.count ?? undefined,
    defaultValue: t("odeme.attention.codes.other", { code: item.code }),
  })
}

export function attentionTodo(t: T, item: Pick<AttentionItem, "code">): string {
  return t(`odeme.attention.todo.${item.code}`, { defaultValue: t("odeme.attention.todo.other") })
}

export function connectionText(t: T, c: ConnectionCheck): string {
  if (c.code === "ok") {
    if (c.check === "bank_groups") return bankAccountsText(t, c.params)
    if (c.check === "key_mode") return t("odeme.connection.codes.okKeyMode", { key: modeLabel(t, String(c.params.key)) })
    // Plain "OK" already shows as the check's status.
    return ""
  }
  const params: Record<string, string | number> = { ...c.params }
  for (const k of ["key", "configured"]) if (typeof params[k] === "string") params[k] = modeLabel(t, String(params[k]))
  return t(`odeme.connection.codes.${c.code}`, params)
}

/** The bank groups and the accounts checkout offers from them (an older server counts groups only). */
function bankAccountsText(t: T, params: ConnectionCheck["params"]): string {
  const groups = t("odeme.connection.codes.okBankGroups", { count: Number(params.count ?? 0) })
  if (params.accounts === undefined) return groups
  const count = Number(params.accounts)
  const accounts =
    params.group === undefined
      ? t("odeme.connection.codes.okBankAccounts", { count })
      : t("odeme.connection.codes.okBankAccountsOfGroup", { count, group: params.group })
  return `${groups}, ${accounts}`
}

export function chargeStatusLabel(t: T, status: string): string {
  return t(`odeme.charges.statuses.${status}`, { defaultValue: t("odeme.charges.statuses.other", { status }) })
}

/** Medusa's payment collection status (not_paid, awaiting, completed, …). */
export function collectionStatusLabel(t: T, status: string): string {
  return t(`odeme.collectionStatuses.${status}`, { defaultValue: t("odeme.collectionStatuses.other", { status }) })
}

/** Medusa's payment session status (pending, pending_authorization, captured, …). */
export function sessionStatusLabel(t: T, status: string): string {
  return t(`odeme.sessionStatuses.${status}`, { defaultValue: t("odeme.sessionStatuses.other", { status }) })
}

/** The last status check of a payment, in words (the raw `last_result` stays in the technical details). */
export function lastCheckText(t: T, check: LastCheck): string {
  return t(`odeme.lastCheck.${check.code}`, { ...check.params, defaultValue: t("odeme.lastCheck.other") })
}

/** What "Ask Odeme now" found, in words: paid now, still waiting, the service does not know it, … */
export function checkResultText(t: T, r: Pick<CheckResult, "code" | "state">): string {
  const state = stateLabel(t, r.state)
  if (!r.code) return t("odeme.widget.toast.unchanged", { state })
  return t(`odeme.widget.toast.results.${r.code}`, { state, defaultValue: t("odeme.widget.toast.unchanged", { state }) })
}

/** How a toast reports a check: its title and sentence, from the stable result code. */
export function checkToast(t: T, r: CheckResult): { kind: "success" | "info" | "warning"; title: string; description: string } {
  if (r.changed && r.state === "paid")
    return { kind: "success", title: t("odeme.widget.toast.paidNowTitle"), description: t("odeme.widget.toast.paidNow") }
  if (r.changed)
    return {
      kind: "success",
      title: t("odeme.widget.toast.changedTitle"),
      description: t("odeme.widget.toast.changed", { state: stateLabel(t, r.state) }),
    }
  const failed = r.code === "not_found" || r.code === "service_error" || r.code === "settling_failed" || r.code === "unknown_session"
  return {
    kind: failed ? "warning" : "info",
    title: t(failed ? "odeme.widget.toast.failedTitle" : "odeme.widget.toast.unchangedTitle"),
    description: checkResultText(t, r),
  }
}

/**
 * A failed request in the user's language. The admin routes end their English
 * message with a code in brackets (`… [odeme.notification_busy]`; js-sdk's
 * FetchError keeps only the message), whose text is `odeme.errors.<code>`.
 * Without a code: a sentence for a lost session or access (401/403), a server
 * failure (5xx) or no connection; otherwise the server's message as it is.
 */
export function errorText(t: T, error: unknown): string {
  const message = error instanceof Error ? error.message : String(error)
  const bracket = /\s*\[odeme\.([a-z_]+)\]\.?\s*$/.exec(message)
  const plain = bracket ? message.slice(0, bracket.index) : message
  const field = (error as { code?: unknown } | null)?.code
  const code = bracket?.[1] ?? (typeof field === "string" && /^odeme\.[a-z_]+$/.test(field) ? field.slice("odeme.".length) : null)
  if (code) return t(`odeme.errors.${code}`, { defaultValue: plain })
  const status = (error as { status?: unknown } | null)?.status
  if (status === 401 || status === 403) return t("odeme.errors.forbidden")
  if (typeof status === "number" && status >= 500) return t("odeme.errors.server")
  // fetch() rejects with a TypeError when the server cannot be reached.
  if (error instanceof TypeError) return t("odeme.errors.network")
  return plain
}
