/**
 * What the fuzz and real-path suites share: the plugin and the emulator run with
 * a distinctive API key, every answer and log line of the file is recorded
 * (Medusa's boot and the file's other suites included), and after each test none
 * of them may hold a secret.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { answerRecorder } from "./answer-recorder"
import { STOREFRONT } from "./checkout-suite"
import { resetEmulator, useOdemeEnvironment } from "./environment"
import { fuzzChecks } from "./fuzz-checks"
import { captureLogs, logLines, restoreLogs } from "./log-capture"
import { CHECKOUT_PROVIDER, cartWithSession, type SeededStore } from "./store"

export { STOREFRONT }

/** The key the plugin and the emulator are configured with. */
export const API_KEY = "sk_sandbox_DO_NOT_LEAK_7f3a"
/** The repository's default sandbox key: must not appear either (it would mean a default leaked in). */
export const DEFAULT_SANDBOX_KEY = "sandbox_test_key_0001"
export const SECRETS = [API_KEY, DEFAULT_SANDBOX_KEY]

/**
 * Call at the top of the spec, before medusaIntegrationTestRunner: log capture
 * starts before Medusa boots. `inSuite` is called inside its testSuite.
 */
export type SecretScan = ReturnType<typeof useSecretScan>

export function useSecretScan(opts: { env?: Record<string, string> } = {}) {
  beforeAll(captureLogs)
  afterAll(restoreLogs)

  const env = useOdemeEnvironment({
    env: { ...opts.env, ODEME_STOREFRONT_URL: STOREFRONT },
    // The emulator and the plugin share it, and every suite's own "never the key" check looks for it.
    apiKey: API_KEY,
  })
  const recorder = answerRecorder(() => env.backendUrl, SECRETS)

  function inSuite({ api, getContainer }: { api: any; getContainer: () => MedusaContainer }) {
    const { record, answers, expectNoSecretIn } = recorder
    const db = () => getContainer().resolve(ContainerRegistrationKeys.PG_CONNECTION)

    async function freshForm(store: SeededStore, sessionId: string, cartId: string) {
      const res = await api.post(`/store/odeme/payment-sessions/${sessionId}/form`, { cart_id: cartId }, store.headers)
      record("form", res)
      return res.data.form
    }

    async function checkoutSession(store: SeededStore) {
      const { cart, session, response } = await cartWithSession(api, store, CHECKOUT_PROVIDER, {})
      record("session", response)
      expect(response.status).toBe(200)
      return { cart, session }
    }

    beforeEach(async () => {
      await resetEmulator(env, [300, 600])
    })

    // Each test checks what was answered and logged since the previous check (the first one:
    // since the file began, Medusa's boot included), so no test relies on another one having
    // run before it and no file leaves its boot unchecked.
    let checked = { answers: 0, lines: 0 }
    afterEach(() => {
      const from = checked
      checked = { answers: answers.length, lines: logLines.length }
      expectNoSecretIn(answers.slice(from.answers), logLines.slice(from.lines))
    })

    return { db, freshForm, checkoutSession, ...fuzzChecks(getContainer, recorder) }
  }

  return { env, recorder, inSuite }
}
