import { container } from "@medusajs/framework"
import { OdemeApiError } from "../../../client"
import { OdemeCheckoutProvider } from "../../../providers/odeme/services/odeme-checkout"
import { OdemeTransferProvider } from "../../../providers/odeme/services/odeme-transfer"
import { failureOf, silentLogger, startServiceForProviders } from "../../../providers/odeme/__tests__/support/memory-module"
import { keyWarnings } from "../../../api/admin/odeme/settings/warnings"
import { keyMode, knownKeyMode } from "../key-mode"
import { applyServiceAnswer } from "../../../workflows/payment-state/apply-service-answer"

const paid = (uuid: string) => ({ kind: "paid", uuid, amount: "250.00", currency: "TRY" }) as const
const live = { mode: "live", backendUrl: "https://api.shop.example", storefrontUrl: "https://shop.example", minimumAmountTry: 1 }
/** The in-process emulator and a plugin module on `options`, for one test's `work`. */
async function withService(options: Record<string, unknown>, work: (env: Awaited<ReturnType<typeof startServiceForProviders>>) => Promise<void>) {
  const env = await startServiceForProviders(options)
  try {
    await work(env)
  } finally {
    await env.emulator.close()
  }
}

/** A checkout payment recorded on `env`'s module, then told paid (uuid `uuid`) through the one writer. */
async function paidCheckout(env: Awaited<ReturnType<typeof startServiceForProviders>>, sessionId: string, uuid: string) {
  await env.module.recordInitiated({
    session_id: sessionId,
    provider: "odeme-checkout",
    flow: null,
    mode: env.module.odemeOptions.mode,
    amount: "250.00",
    currency: "TRY",
  })
  return (await applyServiceAnswer(container, sessionId, paid(uuid), { act: false, sessionAlive: true })).payment
}

const initiate = (Provider: typeof OdemeCheckoutProvider | typeof OdemeTransferProvider, options: Record<string, unknown>, id: string) =>
  new Provider({ logger: silentLogger }, options).initiatePayment({ amount: 250, currency_code: "try", data: { session_id: id }, context: {} } as any)

/**
 * The emulator's key is a sandbox key: a store set to live that holds it must
 * start no payment once the service has named the key, and nothing it is told
 * was paid may capture.
 */
describe("a live store holding a sandbox key", () => {
  let env: Awaited<ReturnType<typeof startServiceForProviders>>

  beforeEach(async () => {
    env = await startServiceForProviders(live)
  })
  afterEach(() => env.emulator.close())

  it("the key's mode is asked of the service once per client, one question for concurrent callers", async () => {
    const ask = jest.spyOn(env.module.client, "verifyNotification")
    expect(knownKeyMode(env.module.client)).toBeUndefined()
    expect(await Promise.all([keyMode(env.module.client), keyMode(env.module.client)])).toEqual(["sandbox", "sandbox"])
    expect(await keyMode(env.module.client)).toBe("sandbox")
    expect(knownKeyMode(env.module.client)).toBe("sandbox")
    expect(ask).toHaveBeenCalledTimes(1)
  })

  it("a question that could not be asked is not answered for every caller again at once, and is not taken as an answer", async () => {
    const ask = jest
      .spyOn(env.module.client, "verifyNotification")
      .mockRejectedValueOnce(new OdemeApiError({ endpoint: "verifyNotification", method: "POST", path: "/x", kind: "timeout", retryable: true }))
    await expect(keyMode(env.module.client)).rejects.toMatchObject({ kind: "timeout" })
    await expect(keyMode(env.module.client)).rejects.toMatchObject({ kind: "timeout" })
    expect(ask).toHaveBeenCalledTimes(1)
    expect(knownKeyMode(env.module.client)).toBeUndefined()
  })

  it("a 503 or a 429 is the service not answering now, not an answer: never taken as no sandbox", async () => {
    for (const status of [503, 429]) {
      await withService(live, async (fresh) => {
        jest
          .spyOn(fresh.module.client, "verifyNotification")
          .mockRejectedValueOnce(
            new OdemeApiError({ endpoint: "verifyNotification", method: "POST", path: "/x", kind: "http", status, retryable: true })
          )
        await expect(keyMode(fresh.module.client)).rejects.toMatchObject({ status })
        expect(knownKeyMode(fresh.module.client)).toBeUndefined()
      })
    }
  })

  it("a session's start does not wait for the answer; once the service has named a sandbox key, no payment starts, card or transfer, and Settings says why", async () => {
    expect(keyWarnings(knownKeyMode(env.module.client), env.module.odemeOptions)).toEqual([])
    const first = await initiate(OdemeCheckoutProvider, env.options, "payses_keymodefirst")
    expect(first.status).toBeDefined()
    await keyMode(env.module.client)
    // Customers are only told the method is unavailable: the merchant's Settings names the key.
    expect(keyWarnings(knownKeyMode(env.module.client), env.module.odemeOptions)).toEqual([
      { code: "sandbox_key_in_live", severity: "error", params: {} },
    ])
    expect(keyWarnings("sandbox", { mode: "sandbox" })).toEqual([])
    expect(keyWarnings("live", { mode: "live" })).toEqual([])
    for (const Provider of [OdemeCheckoutProvider, OdemeTransferProvider]) {
      const id = `payses_keymode${Provider.name}`
      expect((await failureOf(initiate(Provider, env.options, id))).code).toBe("odeme.service_misconfigured")
      expect(env.module.payments.get(id)).toBeUndefined()
    }
  })

  it("a success reported to it goes to review (verify_refused_mode), never to paid, its charge recorded as no money", async () => {
    await env.module.recordInitiated({
      session_id: "payses_km1",
      provider: "odeme-transfer",
      flow: "transfer_api",
      mode: "live",
      amount: "250.00",
      currency: "TRY",
    })
    const { payment, decision } = await applyServiceAnswer(container, "payses_km1", paid("u-1"), { act: true, sessionAlive: true })
    expect(decision.action).toBe("none")
    expect(payment).toMatchObject({ status: "review", review_code: "verify_refused_mode" })
    expect([...env.module.charges.values()].filter((c: any) => c.session_id === "payses_km1")).toEqual([
      expect.objectContaining({ service_uuid: "u-1", status: "successful", role: "none" }),
    ])
  })
})

describe("a live store whose key the service does not name", () => {
  it("an error answer to the question (a 4xx, an unreadable body) is no sandbox: payments are not blocked", async () => {
    await withService(live, async (env) => {
      const ask = jest
        .spyOn(env.module.client, "verifyNotification")
        .mockRejectedValueOnce(
          new OdemeApiError({ endpoint: "verifyNotification", method: "POST", path: "/x", kind: "http", status: 404, retryable: false })
        )
      const payment = await paidCheckout(env, "payses_km3", "u-3")
      expect(payment.status).toBe("paid")
      expect(knownKeyMode(env.module.client)).toBeNull()
      expect(ask).toHaveBeenCalledTimes(1)
    })
  })

  it("a question the service does not answer now (a 503) does not hold up a payment its verify proved", async () => {
    await withService(live, async (env) => {
      jest
        .spyOn(env.module.client, "verifyNotification")
        .mockRejectedValueOnce(
          new OdemeApiError({ endpoint: "verifyNotification", method: "POST", path: "/x", kind: "http", status: 503, retryable: true })
        )
      expect((await paidCheckout(env, "payses_km4", "u-4")).status).toBe("paid")
      expect(knownKeyMode(env.module.client)).toBeUndefined()
    })
  })

  it("a sandbox store is not asked and pays", async () => {
    await withService({}, async (env) => {
      const ask = jest.spyOn(env.module.client, "verifyNotification")
      const payment = await paidCheckout(env, "payses_km2", "u-2")
      expect(payment.status).toBe("paid")
      expect(ask).not.toHaveBeenCalled()
    })
  })
})
