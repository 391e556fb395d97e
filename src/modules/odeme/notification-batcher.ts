/**
 * Shares the inbox's one statement among webhooks that arrive together.
 *
 * A notification alone is written at once. While MAX_RUNNING writes are in
 * flight, new ones wait and go together in the next statement (up to
 * MAX_BATCH), so under a burst each webhook costs a share of a statement
 * instead of its own round trip, plan and commit: the burst is acknowledged
 * sooner, and the database and Medusa's pool keep room for everything else.
 * Each caller still gets its answer only after its own row is committed.
 */
type Waiting<I, O> = { input: I; resolve: (out: O) => void; reject: (err: unknown) => void }

export class NotificationBatcher<I, O> {
  private readonly waiting: Waiting<I, O>[] = []
  private running = 0

  constructor(private readonly write: (inputs: I[]) => Promise<O[]>) {}

  add(input: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.waiting.push({ input, resolve, reject })
      this.next()
    })
  }

  private next(): void {
    while (this.running < MAX_RUNNING && this.waiting.length) {
      const batch = this.waiting.splice(0, MAX_BATCH)
      this.running++
      void this.run(batch).finally(() => {
        this.running--
        this.next()
      })
    }
  }

  private async run(batch: Waiting<I, O>[]): Promise<void> {
    try {
      const out = await this.write(batch.map((b) => b.input))
      batch.forEach((b, i) => b.resolve(out[i]))
    } catch (err) {
      if (batch.length === 1) return batch[0].reject(err)
      // One notification the statement cannot take must not cost the others their write: each alone.
      await Promise.all(batch.map((b) => this.write([b.input]).then(([out]) => b.resolve(out), b.reject)))
    }
  }
}

/** Two statements in flight keep the database busy while the next batch gathers. */
const MAX_RUNNING = 2
/** A statement's parameters stay small (a notification's raw body is at most 64 KB). */
const MAX_BATCH = 100
