import type { BankAccount } from "../client"

export interface BankChoice {
  bank_id: number
  bank_name: string
  account_holder: string
  iban: string
  /** IBAN in groups of four for display ("TR12 0006 4000 ..."). */
  iban_display: string
  description: string
  group_id: number
  group_name: string
}

export interface BankGroupWithAccounts {
  id: number
  name: string
  accounts: BankChoice[]
}

export function formatIban(iban: string): string {
  return iban
    .replace(/\s+/g, "")
    .toUpperCase()
    .replace(/(.{4})/g, "$1 ")
    .trim()
}

/** The groups whose accounts checkout offers: the configured one (`transfer.bankGroupId`), or all. */
export function offeredGroups<G extends { id: number }>(all: G[], bankGroupId: number | undefined): G[] {
  return bankGroupId ? all.filter((g) => g.id === bankGroupId) : all
}

export function toChoice(account: BankAccount, group: { id: number; name: string }): BankChoice {
  const compact = account.bta_iban.replace(/\s+/g, "").toUpperCase()
  return {
    bank_id: account.bta_id,
    bank_name: account.bta_name,
    account_holder: account.bta_fullname,
    iban: compact,
    iban_display: formatIban(compact),
    description: account.bta_description ?? "",
    group_id: group.id,
    group_name: group.name,
  }
}
