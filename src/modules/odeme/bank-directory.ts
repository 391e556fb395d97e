import type { OdemeClient } from "../../client"
import { offeredGroups, toChoice, type BankChoice, type BankGroupWithAccounts } from "../../lib/bank-accounts"

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
