/**
 * The unit tests of the money core, for `npm run mutate` (Stryker's jest
 * runner takes one project, not jest.config.js's list). Same transform and
 * settings as the `unit` project there. Only the tests next to the mutated
 * code: the providers' and routes' unit tests reach the core too, but each
 * mutant would then start their emulators and stores (seconds per mutant on
 * two shared cores); the core must be pinned by its own tests.
 */
const { projects } = require("./jest.config")

const unit = projects.find((p) => p.displayName === "unit")
module.exports = {
  ...unit,
  rootDir: __dirname,
  testMatch: [
    "<rootDir>/src/client/__tests__/**/*.unit.spec.[jt]s",
    "<rootDir>/src/lib/__tests__/**/*.unit.spec.[jt]s",
    "<rootDir>/src/lib/payment-state/__tests__/**/*.unit.spec.[jt]s",
    "<rootDir>/src/emulator/__tests__/**/*.unit.spec.[jt]s",
  ],
}
