/**
 * Which stored notification a processing turn takes (docs/reliability.md, "a
 * flood cannot hold a payment back"). A delivery that proved who sent it (a
 * webhook from the service's named address, a return with the session's
 * proof) is processed as itself. One that proved nothing is a turn of its
 * session's lane: the newest due unproven row goes first, so a genuine copy
 * delivered after a flood of forged ones is verified in the next verify
 * window however long the backlog; every OLDEST_SHARE-th verify of the
 * session's window goes to the oldest, so one buried while the flood lasts is
 * reached too.
 */
export type Lane = "exact" | "newest" | "oldest"

export const OLDEST_SHARE = 4

/** What the lane is decided from: the asked row's proof, and the session's verify calls in its open window. */
export interface LaneFacts {
  trusted: boolean
  verify_calls: number | null
  window_open: boolean | null
}

export function laneFor(facts: LaneFacts | null): Lane {
  if (!facts || facts.trusted) return "exact"
  const taken = facts.window_open ? (facts.verify_calls ?? 0) : 0
  return taken % OLDEST_SHARE === OLDEST_SHARE - 1 ? "oldest" : "newest"
}
