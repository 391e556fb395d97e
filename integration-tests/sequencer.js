/**
 * The order jest hands files to its workers: the Medusa-backed files first
 * (they run longest), the browser file once each worker has one, then the
 * rest, each in jest's own order (failed first, then slowest, from its cache;
 * by size on a fresh machine, where the cache is empty).
 *
 * The browser file is not first: the layer's demo stack starts in the
 * background when the run begins and takes a minute or two to be ready, so a
 * browser file started at once would hold a worker idle while it waits. By the
 * time one of the first files ends, the stack is up; starting it later than
 * that would leave one worker idle at the end of the run instead.
 */
const path = require("node:path")
const Sequencer = require("@jest/test-sequencer").default

// After as many files as there are workers (scripts/test.js passes ODEME_TEST_WORKERS to jest).
const BROWSER_AT = Number(process.env.ODEME_TEST_WORKERS || 2)

const rank = (file) => {
  const rel = path.relative(path.resolve(__dirname, ".."), file).split(path.sep).join("/")
  if (rel.startsWith("integration-tests/http/")) return 0
  if (rel.startsWith("integration-tests/e2e/")) return 1
  if (rel.includes(".integration.spec.")) return 2
  return 3
}

class OdemeSequencer extends Sequencer {
  async sort(tests) {
    const ordered = (await super.sort(tests))
      .map((t, i) => ({ t, i }))
      .sort((a, b) => rank(a.t.path) - rank(b.t.path) || a.i - b.i)
      .map((x) => x.t)
    const browser = ordered.filter((t) => rank(t.path) === 1)
    const others = ordered.filter((t) => rank(t.path) !== 1)
    others.splice(Math.min(BROWSER_AT, others.length), 0, ...browser)
    return others
  }
}

module.exports = OdemeSequencer
