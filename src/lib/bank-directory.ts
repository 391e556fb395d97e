import type { BankAccount, OdemeClient } from "../client"

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

function toChoice(account: BankAccount, group: { id: number; name: string }): BankChoice {
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

/**
 * The merchant's bank accounts (spec §4.3, §4.4), cached for a few minutes:
 * they change rarely and every checkout shows them. When a refresh fails the
 * last good list is kept, so a brief outage does not hide the banks.
 */
export class BankDirectory {
  private cache: { at: number; groups: BankGroupWithAccounts[] } | null = null
  private inflight: Promise<BankGroupWithAccounts[]> | null = null

  constructor(
    private readonly client: OdemeClient,
    private readonly opts: { bankGroupId?: number; ttlSeconds: number }
  ) {}

  async groups(): Promise<BankGroupWithAccounts[]> {
    const fresh = this.cache && Date.now() - this.cache.at < this.opts.ttlSeconds * 1000
    if (fresh) return this.cache!.groups
    this.inflight ??= this.load()
      .then((groups) => {
        this.cache = { at: Date.now(), groups }
        return groups
      })
      .catch((err) => {
        if (this.cache) return this.cache.groups
        throw err
      })
      .finally(() => {
        this.inflight = null
      })
    return this.inflight
  }

  async accounts(): Promise<BankChoice[]> {
    return (await this.groups()).flatMap((g) => g.accounts)
  }

  async find(bankId: number): Promise<BankChoice | undefined> {
    return (await this.accounts()).find((a) => a.bank_id === bankId)
  }

  private async load(): Promise<BankGroupWithAccounts[]> {
    const all = await this.client.listBankGroups()
    const groups = offeredGroups(all, this.opts.bankGroupId)
    return Promise.all(
      groups.map(async (g) => ({
        id: g.id,
        name: g.name,
        accounts: (await this.client.listBanks(g.id)).map((a) => toChoice(a, g)),
      }))
    )
  }
}
