import { parseExpression } from "cron-parser"

/**
 * The longest gap between two runs of the poller's schedule (`transfer.pollSchedule`),
 * over its next runs: "three of its periods" without a pass means nothing runs it. A
 * schedule that skips days (weekdays only) is judged by its longest gap.
 */
export function pollerPeriodMs(cron: string, from = new Date()): number {
  const runs = parseExpression(cron, { currentDate: from })
  let previous = runs.next().getTime()
  let longest = 0
  for (let i = 0; i < 8; i++) {
    const next = runs.next().getTime()
    longest = Math.max(longest, next - previous)
    previous = next
  }
  return longest
}
