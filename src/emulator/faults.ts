import type { ServerResponse } from "node:http"

export const FAULT_ENDPOINTS = [
  "bank_groups",
  "banks",
  "create_transfer",
  "control",
  "uuid",
  "credit_card",
  "verify",
  "sale_info",
  "checkout_quick",
  "*",
] as const
export type FaultEndpoint = (typeof FAULT_ENDPOINTS)[number]
/** `commit_then_502`: the request is carried out, then a gateway error replaces its answer (a 502 after the service committed). */
export type FaultMode = "error500" | "refuse400" | "hang" | "slow" | "commit_then_502"

export interface Fault {
  id: number
  endpoint: FaultEndpoint
  mode: FaultMode
  remaining: number
  delayMs: number
  hits: number
}

export class FaultRegistry {
  faults: Fault[] = []
  private hanging = new Set<ServerResponse>()
  private slowTimers = new Set<NodeJS.Timeout>()
  private seq = 0

  add(endpoint: FaultEndpoint, mode: FaultMode, count: number, delayMs: number): Fault {
    const f: Fault = { id: ++this.seq, endpoint, mode, remaining: count, delayMs, hits: 0 }
    this.faults.push(f)
    return f
  }

  /** Consumes one use of the first matching fault for `endpoint`, if any. */
  take(endpoint: string): Fault | undefined {
    const f = this.faults.find((x) => x.remaining > 0 && (x.endpoint === endpoint || x.endpoint === "*"))
    if (!f) return undefined
    f.remaining -= 1
    f.hits += 1
    if (f.remaining === 0) this.faults = this.faults.filter((x) => x !== f)
    return f
  }

  hold(res: ServerResponse): void {
    this.hanging.add(res)
    res.on("close", () => this.hanging.delete(res))
  }

  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const t = setTimeout(() => {
        this.slowTimers.delete(t)
        resolve()
      }, ms)
      this.slowTimers.add(t)
    })
  }

  get hangingCount(): number {
    return this.hanging.size
  }

  clear(): void {
    this.faults = []
  }

  /** Drops configured faults and cuts every held request (their clients see a socket error). */
  reset(): void {
    this.clear()
    for (const res of this.hanging) res.socket?.destroy()
    this.hanging.clear()
  }

  close(): void {
    this.reset()
    for (const t of this.slowTimers) clearTimeout(t)
    this.slowTimers.clear()
  }
}
