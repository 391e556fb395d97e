import { takeReturnVerifyBudget } from "../return-verify-budget"

describe("the store's verify budget for customers' returns", () => {
  it("allows `budget` calls per window across all sessions, then says when the next window opens", () => {
    const t0 = 1_000_000_000_000
    expect(takeReturnVerifyBudget(2, 60, t0)).toEqual({ ok: true })
    expect(takeReturnVerifyBudget(2, 60, t0 + 10)).toEqual({ ok: true })
    expect(takeReturnVerifyBudget(2, 60, t0 + 20)).toEqual({ ok: false, retryAt: new Date(t0 + 60_000 + 50) })
    // The next window is a fresh budget.
    expect(takeReturnVerifyBudget(2, 60, t0 + 60_000)).toEqual({ ok: true })
  })
})
