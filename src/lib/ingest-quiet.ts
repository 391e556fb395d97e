/**
 * Acknowledging comes first: while webhooks are being taken in by this
 * process, processing waits (at most MAX_YIELD_MS), so a burst is answered
 * at the pace of its one write each and the queue drains after it. Waiting
 * ends once no webhook is between its arrival and its answer and none came
 * in the last QUIET_MS. A single notification waits about QUIET_MS.
 *
 * A pause in arrivals alone is not quiet: under a burst a garbage
 * collection or a slow statement leaves the route without new entries for
 * longer than QUIET_MS while many webhooks still wait for their write, and
 * processing that started then took the cores from their answers.
 */
export function noteIngest(): () => void {
  ingesting++
  lastIngestAt = Date.now()
  let ended = false
  return () => {
    if (ended) return
    ended = true
    ingesting--
    lastIngestAt = Date.now()
  }
}

const QUIET_MS = 15
const MAX_YIELD_MS = 2_000
let lastIngestAt = 0
let ingesting = 0

/** Resolves when processing may start (see noteIngest). */
export async function ingestQuiet(): Promise<void> {
  const giveUpAt = Date.now() + MAX_YIELD_MS
  for (;;) {
    const gap = Date.now() - lastIngestAt
    if ((ingesting === 0 && gap >= QUIET_MS) || Date.now() >= giveUpAt) return
    await new Promise((r) => setTimeout(r, ingesting === 0 ? QUIET_MS - gap : QUIET_MS))
  }
}
