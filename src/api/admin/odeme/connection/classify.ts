import { isOdemeApiError, redact, type OdemeClient } from "../../../../client"
import type { OdemeOptions } from "../../../../lib/options"
import { keyModeOf, MODE_PROBE } from "../../../../lib/key-mode-probe"
import { webhookUrlOf } from "../settings/warnings"
import { errorText } from "../../../../lib/error-text"
import { offeredGroups } from "../../../../lib/bank-accounts"

/**
 * Test connection: calls the service with the configured key and says what
 * is wrong as codes the Admin translates (`odeme.connection.codes.<code>`).
 * The service's own message goes along as `detail`, redacted.
 */
export type ConnectionCode =
  | "ok"
  | "wrong_key" // 401: the key is not a key of this service
  | "ip_restricted" // 403: api_ip does not allow this server
  | "wrong_base_url" // 404: baseUrl does not point at the service's API
  | "unreachable" // timeout or network error
  | "service_error" // another HTTP error (5xx …)
  | "unexpected_answer" // an answer the client could not read
  | "wrong_mode" // a sandbox key in live mode or the reverse
  | "mode_unknown" // the service did not say which mode the key is of
  | "webhook_not_https"
  | "no_bank_groups"
  | "bank_group_unknown" // transfer.bankGroupId is not one of the groups the service lists: no account would be offered

export type CheckName = "api_key" | "key_mode" | "bank_groups" | "webhook_https"
export type CheckStatus = "ok" | "failed" | "warning" | "skipped"

export interface ConnectionCheck {
  check: CheckName
  status: CheckStatus
  code: ConnectionCode
  params: Record<string, string | number>
  detail: string | null
}

export interface ConnectionResult {
  ok: boolean
  /** The first failure, or "ok". */
  code: ConnectionCode
  mode: OdemeOptions["mode"]
  checks: ConnectionCheck[]
  tested_at: string
}

export function classifyServiceError(err: unknown, apiKey: string): Pick<ConnectionCheck, "code" | "params" | "detail"> {
  const detail = (text: string | undefined) => (text ? redact(text, [apiKey]).slice(0, 500) : null)
  if (!isOdemeApiError(err)) return { code: "service_error", params: {}, detail: detail(errorText(err)) }
  const message = detail(err.serviceMessage ?? err.message)
  switch (err.kind) {
    case "timeout":
    case "network":
      return { code: "unreachable", params: err.code ? { reason: err.code } : {}, detail: message }
    case "invalid_response":
      return { code: "unexpected_answer", params: {}, detail: message }
    case "http":
    default:
      if (err.status === 401) return { code: "wrong_key", params: { status: 401 }, detail: message }
      if (err.status === 403) return { code: "ip_restricted", params: { status: 403 }, detail: message }
      if (err.status === 404) return { code: "wrong_base_url", params: { status: 404 }, detail: message }
      return { code: "service_error", params: err.status ? { status: err.status } : {}, detail: message }
  }
}

/**
 * The bank groups, and the accounts checkout offers from them: checkout lists
 * accounts, not groups, so a count of groups alone reads as a mismatch with
 * what the customer sees. The lists are asked as checkout asks them.
 */
async function bankAccountsCheck(
  client: Pick<OdemeClient, "listBanks">,
  groups: Array<{ id: number }>,
  options: { apiKey: string; transfer?: Pick<OdemeOptions["transfer"], "bankGroupId"> }
): Promise<ConnectionCheck> {
  const only = options.transfer?.bankGroupId
  if (groups.length === 0) return { check: "bank_groups", status: "warning", code: "no_bank_groups", params: { count: 0, accounts: 0 }, detail: null }
  // The storefront offers only this group's accounts: none, and the customer sees no bank to pay.
  if (only !== undefined && !groups.some((g) => g.id === only)) {
    return {
      check: "bank_groups",
      status: "failed",
      code: "bank_group_unknown",
      params: { id: only, ids: groups.map((g) => g.id).join(", ") },
      detail: null,
    }
  }
  let accounts: number
  try {
    accounts = (await Promise.all(offeredGroups(groups, only).map((g) => client.listBanks(g.id)))).reduce((n, list) => n + list.length, 0)
  } catch (err) {
    return { check: "bank_groups", status: "failed", ...classifyServiceError(err, options.apiKey) }
  }
  const params = { count: groups.length, accounts, ...(only !== undefined ? { group: only } : {}) }
  return accounts === 0
    ? { check: "bank_groups", status: "warning", code: "no_bank_groups", params, detail: null }
    : { check: "bank_groups", status: "ok", code: "ok", params, detail: null }
}

export async function testConnection(
  client: Pick<OdemeClient, "listBankGroups" | "listBanks" | "verifyNotification">,
  options: Pick<OdemeOptions, "mode" | "backendUrl" | "apiKey"> & { transfer?: Pick<OdemeOptions["transfer"], "bankGroupId"> },
  now: () => Date = () => new Date()
): Promise<ConnectionResult> {
  const checks: ConnectionCheck[] = []

  let reached = false
  try {
    const groups = await client.listBankGroups()
    reached = true
    checks.push({ check: "api_key", status: "ok", code: "ok", params: {}, detail: null })
    checks.push(await bankAccountsCheck(client, groups, options))
  } catch (err) {
    checks.push({ check: "api_key", status: "failed", ...classifyServiceError(err, options.apiKey) })
  }

  if (!reached) {
    checks.push({ check: "key_mode", status: "skipped", code: "mode_unknown", params: {}, detail: null })
  } else {
    try {
      const answer = await client.verifyNotification({ ...MODE_PROBE })
      const keyMode = keyModeOf(answer.mode)
      if (keyMode === null) checks.push({ check: "key_mode", status: "skipped", code: "mode_unknown", params: {}, detail: null })
      else if (keyMode !== options.mode) {
        checks.push({ check: "key_mode", status: "failed", code: "wrong_mode", params: { configured: options.mode, key: keyMode }, detail: null })
      } else checks.push({ check: "key_mode", status: "ok", code: "ok", params: { key: keyMode }, detail: null })
    } catch (err) {
      checks.push({
        check: "key_mode",
        status: "skipped",
        code: "mode_unknown",
        params: {},
        detail: classifyServiceError(err, options.apiKey).detail,
      })
    }
  }

  const webhook = webhookUrlOf(options)
  if (webhook.startsWith("https://")) checks.push({ check: "webhook_https", status: "ok", code: "ok", params: { url: webhook }, detail: null })
  else {
    checks.push({
      check: "webhook_https",
      status: options.mode === "live" ? "failed" : "warning",
      code: "webhook_not_https",
      params: { url: webhook },
      detail: null,
    })
  }

  const failure = checks.find((c) => c.status === "failed")
  return { ok: !failure, code: failure?.code ?? "ok", mode: options.mode, checks, tested_at: now().toISOString() }
}
