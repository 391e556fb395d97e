import { container } from "@medusajs/framework"
import type { OdemePaymentRow } from "../../../modules/odeme/service"
import { installMemoryModule, type MemoryOdemeModule } from "../../../providers/odeme/__tests__/support/memory-module"
import { applyServiceAnswer } from "../apply-service-answer"

/**
 * The notification path decides on the payment row it read before its verify
 * call (one read per processing). An answer that would act on that row without
 * changing it (a redelivered success of a paid payment: settle) must not act
 * when another writer moved the row meanwhile.
 */
describe("applyServiceAnswer on a row the caller read earlier", () => {
  const answer = { kind: "paid", uuid: "u-1", amount: "250.00", currency: "TRY" } as const
  let odeme: MemoryOdemeModule
  let read: OdemePaymentRow

  beforeEach(async () => {
    odeme = installMemoryModule({
      apiKey: "sandbox_test_key_0001",
      apiId: "1001",
      baseUrl: "http://127.0.0.1:9",
      backendUrl: "http://localhost:9000",
      storefrontUrl: "http://localhost:8000",
    })
    await odeme.recordInitiated({
      session_id: "payses_1",
      provider: "odeme-checkout",
      flow: "card",
      mode: "sandbox",
      amount: "250.00",
      currency: "TRY",
    })
    read = (await odeme.compareAndSetState("payses_1", 0, { status: "paid", review_code: null, review_reason: null, service_uuid: "u-1" }))!
  })

  it("settles on the caller's read when the row is still that version, after one check of the version", async () => {
    const reads = jest.spyOn(odeme, "getPayment")
    const { decision } = await applyServiceAnswer(container, "payses_1", answer, { act: false, sessionAlive: true, read })
    expect(decision.action).toBe("settle")
    expect(reads).toHaveBeenCalledTimes(1)
  })

  it("decides again on the row another writer moved to review meanwhile, and does not settle", async () => {
    await odeme.compareAndSetState("payses_1", read.version, { status: "review", review_code: "contradiction", review_reason: "x" })
    const reads = jest.spyOn(odeme, "getPayment")
    const { decision, payment } = await applyServiceAnswer(container, "payses_1", answer, { act: false, sessionAlive: true, read })
    expect(decision.action).not.toBe("settle")
    expect(payment.status).toBe("review")
    // The check's read is the next round's row: not read a second time.
    expect(reads).toHaveBeenCalledTimes(1)
  })
})
