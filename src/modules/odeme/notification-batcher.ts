/**
 * Shares the inbox's one statement among webhooks that arrive together.
 *
 * A statement starts once the event loop has read what arrived with it
 * (setImmediate: a lone notification is written at once, webhooks read in
 * the same turn share one statement). While a write is in flight, new ones
 * wait and go together in the next statement (up to MAX_BATCH), so
 * under a burst each webhook costs a share of a statement
 * instead of its own round trip, plan and commit: the burst is acknowledged
 * sooner, and the database and Medusa's pool keep room for everything else.
 * Each caller still gets its answer only after its own row is committed.
 *
 * When the database is slow or down, the wait is bounded like the route's
 * own deadline: at most MAX_WAITING wait (beyond that a write is refused at
 * once, and the route answers 503 so the service delivers it again), and one
 * that waited MAX_WAIT_MS is refused instead of written, as its caller has
 * answered 503 by then. A caller that has no one to refuse to passes
 * `bounded: false`: its writes wait as long as the database takes.
 */
export class NotificationBatcher<I, O> {
  private readonly waiting: Waiting<I, O>[] = []
  private running = 0
  private scheduled = false
  private readonly maxWaiting: number
  private readonly maxWaitMs: number

  constructor(
    private readonly write: (inputs: I[]) => Promise<O[]>,
    { bounded = true }: { bounded?: boolean } = {}
  ) {
    this.maxWaiting = bounded ? MAX_WAITING : Infinity
    this.maxWaitMs = bounded ? MAX_WAIT_MS : Infinity
  }

  add(input: I): Promise<O> {
    this.shedStale()
    if (this.waiting.length >= this.maxWaiting) {
      return Promise.reject(new Error(`${this.maxWaiting} notifications already wait for the database`))
    }
    return new Promise<O>((resolve, reject) => {
      this.waiting.push({ input, resolve, reject, since: Date.now() })
      this.schedule()
    })
  }

  /**
   * The next statement, after the I/O of this turn of the event loop: under
   * a burst, the webhooks read together with a statement's answer join the
   * next one instead of each starting a statement of one or two rows.
   */
  private schedule(): void {
    if (this.scheduled) return
    this.scheduled = true
    setImmediate(() => {
      this.scheduled = false
      this.next()
    })
  }

  private next(): void {
    while (this.running < MAX_RUNNING && this.waiting.length) {
      this.shedStale()
      const batch = this.waiting.splice(0, MAX_BATCH)
      if (!batch.length) return
      this.running++
      void this.writeBatch(batch).finally(() => {
        this.running--
        this.schedule()
      })
    }
  }

  private async writeBatch(batch: Waiting<I, O>[]): Promise<void> {
    try {
      const out = await this.write(batch.map((b) => b.input))
      batch.forEach((b, i) => b.resolve(out[i]))
    } catch (err) {
      // The database unavailable or slow: every row would fail alike, so none is tried again here.
      if (batch.length === 1 || !isDataError(err)) return batch.forEach((b) => b.reject(err))
      // A row the statement refused must not cost the others their write: halves, one after the other.
      const half = Math.ceil(batch.length / 2)
      await this.writeBatch(batch.slice(0, half))
      await this.writeBatch(batch.slice(half))
    }
  }

  /** Waiting is first come, first served: the stale ones are at the front. */
  private shedStale(): void {
    const now = Date.now()
    while (this.waiting.length && now - this.waiting[0].since > this.maxWaitMs) {
      this.waiting.shift()!.reject(new Error(`waited more than ${this.maxWaitMs} ms for the database`))
    }
  }
}

type Waiting<I, O> = { input: I; resolve: (out: O) => void; reject: (err: unknown) => void; since: number }

/** PostgreSQL's classes 21 (cardinality), 22 (data exception) and 23 (integrity): a row's content, not the database. */
function isDataError(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code
  return typeof code === "string" && /^2[123]/.test(code)
}

/**
 * One statement in flight: what arrives meanwhile goes in the next, so a
 * burst makes fewer, larger statements, and PostgreSQL, sharing the cores,
 * takes less CPU from the answers (measured with `npm run bench`: see
 * docs/performance.md).
 */
const MAX_RUNNING = 1
/** A statement's parameters stay small (a notification's raw body is at most 64 KB). */
const MAX_BATCH = 100
/** Far above any burst a service sends (a few hundred); reached only while the database does not answer. */
const MAX_WAITING = 1_000
/** The webhook route's deadline: by then its caller has answered 503. */
const MAX_WAIT_MS = 5_000
