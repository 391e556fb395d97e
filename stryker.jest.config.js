/**
 * The unit layer alone, for `npm run mutate` (Stryker's jest runner takes one
 * project, not jest.config.js's list). Same transform and settings as the
 * `unit` project there, so a mutant is judged by the tests `npm test` runs.
 */
const { projects } = require("./jest.config")

const unit = projects.find((p) => p.displayName === "unit")
module.exports = { ...unit, rootDir: __dirname }
