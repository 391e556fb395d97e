/**
 * The order jest hands files to its two workers. The browser file goes first:
 * it waits for the layer's demo stack, which starts in the background, and
 * then runs longest, so starting it last would leave one worker idle at the
 * end of every run. After it the Medusa-backed files, then the rest, each in
 * jest's own order (failed first, then slowest, from its cache; by size on a
 * fresh machine, where the cache is empty).
 */
const path = require("node:path")
const Sequencer = require("@jest/test-sequencer").default

const rank = (file) => {
  const rel = path.relative(path.resolve(__dirname, ".."), file).split(path.sep).join("/")
  if (rel.startsWith("integration-tests/e2e/")) return 0
  if (rel.startsWith("integration-tests/http/")) return 1
  if (rel.includes(".integration.spec.")) return 2
  return 3
}

class OdemeSequencer extends Sequencer {
  async sort(tests) {
    const ordered = await super.sort(tests)
    return ordered
      .map((t, i) => ({ t, i }))
      .sort((a, b) => rank(a.t.path) - rank(b.t.path) || a.i - b.i)
      .map((x) => x.t)
  }
}

module.exports = OdemeSequencer
