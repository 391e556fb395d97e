const { loadEnv } = require("@medusajs/framework/utils")

loadEnv("test", process.cwd())

const transform = {
  "^.+\\.[jt]sx?$": [
    "@swc/jest",
    {
      jsc: {
        parser: { syntax: "typescript", decorators: true },
        transform: { legacyDecorator: true, decoratorMetadata: true },
      },
    },
  ],
}

const common = {
  transform,
  testEnvironment: "node",
  moduleFileExtensions: ["js", "ts", "json"],
  modulePathIgnorePatterns: ["dist/", "<rootDir>/.medusa/", "<rootDir>/.tmp/", "<rootDir>/.stryker-tmp/"],
}

/**
 * Test layers, as in Medusa's starters:
 * - unit: pure tests next to the code (src/**\/__tests__/*.unit.spec.ts, and scripts/), no database;
 * - integration:modules: the plugin's module against PostgreSQL (moduleIntegrationTestRunner);
 * - integration:http: a whole Medusa app over HTTP with the emulator process;
 * - e2e: a real browser (playwright-core + Debian's Chromium) against a running store.
 * scripts/test.js picks them (and starts PostgreSQL when needed). The layers that boot
 * Medusa run in integration-tests/environment.js: their logs are shown only for a failure.
 */
module.exports = {
  testSequencer: "<rootDir>/integration-tests/sequencer.js",
  // A worker keeps what every file it ran loaded (Node's vm contexts are not freed; jest's own
  // workaround is to recycle the worker): without this a worker's heap grows with each file, and the
  // unit files, which run last, ran inside a heap of gigabytes whose collections, on a loaded machine,
  // stalled a worker long enough to time out a test of millisecond timers (retry.unit.spec, in CI).
  // A worker over the limit after a file is replaced before the next one.
  workerIdleMemoryLimit: "700MB",
  projects: [
    {
      ...common,
      displayName: "unit",
      // The scripts' own logic (the demo's command line, its port check) is tested here too.
      testMatch: ["<rootDir>/src/**/__tests__/**/*.unit.spec.[jt]s", "<rootDir>/scripts/**/__tests__/**/*.unit.spec.[jt]s"],
    },
    {
      ...common,
      displayName: "integration:modules",
      testMatch: ["<rootDir>/src/modules/*/__tests__/**/*.integration.spec.[jt]s"],
      setupFiles: ["<rootDir>/integration-tests/setup.js"],
      testEnvironment: "<rootDir>/integration-tests/environment.js",
    },
    {
      ...common,
      displayName: "integration:http",
      testMatch: ["<rootDir>/integration-tests/http/**/*.spec.[jt]s"],
      setupFiles: ["<rootDir>/integration-tests/setup.js"],
      testEnvironment: "<rootDir>/integration-tests/environment.js",
    },
    {
      ...common,
      displayName: "e2e",
      testMatch: ["<rootDir>/integration-tests/e2e/**/*.spec.[jt]s"],
      // One demo stack for every browser file (started only when an e2e file runs).
      globalSetup: "<rootDir>/integration-tests/e2e/support/global-setup.ts",
      globalTeardown: "<rootDir>/integration-tests/e2e/support/global-teardown.ts",
      setupFiles: ["<rootDir>/integration-tests/setup.js"],
      testEnvironment: "<rootDir>/integration-tests/environment.js",
    },
  ],
}
