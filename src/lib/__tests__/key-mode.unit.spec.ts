import { container } from "@medusajs/framework"
import { OdemeCheckoutProvider } from "../../providers/odeme/services/odeme-checkout"
import { OdemeTransferProvider } from "../../providers/odeme/services/odeme-transfer"
import { failureOf, silentLogger, startServiceForProviders } from "../../providers/odeme/__tests__/support/memory-module"
import { keyMode } from "../key-mode"
import { applyServiceAnswer } from "../payment-state/apply-service-answer"

/**
 * The emulator's key is a sandbox key: a store set to live that holds it must
 * start no payment, and nothing it is told was paid may capture.
 */
describe("a live store holding a sandbox key", () => {
  let env: Awaited<ReturnType<typeof startServiceForProviders>>
  const live = { mode: "live", backendUrl: "https://api.shop.example", storefrontUrl: "https://shop.example", minimumAmountTry: 1 }

  beforeEach(async () => {
    env = await startServiceForProviders(live)
  })
  afterEach(() => env.emulator.close())

  it("the key's mode is asked of the service once per client", async () => {
    const ask = jest.spyOn(env.module.client, "verifyNotification")
    expect(await keyMode(env.module.client)).toBe("sandbox")
    expect(await keyMode(env.module.client)).toBe("sandbox")
    expect(ask).toHaveBeenCalledTimes(1)
  })

  it("a failed question is not remembered: the next caller asks again", async () => {
    const ask = jest.spyOn(env.module.client, "verifyNotification").mockRejectedValueOnce(new Error("timeout"))
    await expect(keyMode(env.module.client)).rejects.toThrow("timeout")
    expect(await keyMode(env.module.client)).toBe("sandbox")
    expect(ask).toHaveBeenCalledTimes(2)
  })

  it("starts no payment, card or transfer, with the code of a misconfigured store", async () => {
    for (const Provider of [OdemeCheckoutProvider, OdemeTransferProvider]) {
      const provider = new Provider({ logger: silentLogger }, env.options)
      const id = `payses_keymode${Provider.name}`
      const failure = await failureOf(provider.initiatePayment({ amount: 250, currency_code: "try", data: { session_id: id }, context: {} } as any))
      expect(failure.code).toBe("odeme.service_misconfigured")
      expect(env.module.payments.get(id)).toBeUndefined()
    }
  })

  it("a success reported on any path goes to review (verify_refused_mode), never to paid", async () => {
    await env.module.recordInitiated({
      session_id: "payses_km1",
      provider: "odeme-transfer",
      flow: "transfer_api",
      mode: "live",
      amount: "250.00",
      currency: "TRY",
    })
    const { payment, decision } = await applyServiceAnswer(
      container,
      "payses_km1",
      { kind: "paid", uuid: "u-1", amount: "250.00", currency: "TRY" },
      { act: true, sessionAlive: true }
    )
    expect(decision.action).toBe("none")
    expect(payment).toMatchObject({ status: "review", review_code: "verify_refused_mode" })
  })

  it("a sandbox store with the same key is not asked and pays", async () => {
    const sandbox = await startServiceForProviders({})
    try {
      const ask = jest.spyOn(sandbox.module.client, "verifyNotification")
      await sandbox.module.recordInitiated({
        session_id: "payses_km2",
        provider: "odeme-checkout",
        flow: null,
        mode: "sandbox",
        amount: "250.00",
        currency: "TRY",
      })
      const { payment } = await applyServiceAnswer(
        container,
        "payses_km2",
        { kind: "paid", uuid: "u-2", amount: "250.00", currency: "TRY" },
        { act: false, sessionAlive: true }
      )
      expect(payment.status).toBe("paid")
      expect(ask).not.toHaveBeenCalled()
    } finally {
      await sandbox.emulator.close()
    }
  })
})
