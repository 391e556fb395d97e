/** Where the multi-process tests' store app lives and the environment its processes get. */
import path from "node:path"
import { ROOT } from "../../scripts/lib/plugin-build"

export { ROOT }
export const APP_DIR = path.join(ROOT, "integration-tests/fixtures/app")
/** Logs of every process the tests start (kept after the run for a post-mortem). */
export const LOG_DIR = path.join(ROOT, ".tmp/medusa-process")

/** The environment of Medusa child processes: jest's VM flags and test-only settings removed. */
export function childEnv(extra: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env }
  for (const k of ["NODE_OPTIONS", "JEST_WORKER_ID", "DB_TEMP_NAME", "DATABASE_URL", "PORT", "MEDUSA_WORKER_MODE", "LOG_LEVEL"]) delete env[k]
  for (const k of Object.keys(env)) if (k.startsWith("ODEME_")) delete env[k]
  Object.assign(env, { NODE_ENV: "development", MEDUSA_DISABLE_TELEMETRY: "true", FORCE_COLOR: "0" })
  for (const [k, v] of Object.entries(extra)) {
    if (v === undefined) delete env[k]
    else env[k] = v
  }
  return env
}
