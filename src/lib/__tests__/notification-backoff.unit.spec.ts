import { backoffMs } from "../../workflows/process-notification"

describe("a notification's retry delay", () => {
  it("doubles from 2 s, stays within 15 % of its time, and stops growing at 10 minutes", () => {
    for (const [attempt, ms] of [
      [1, 2_000],
      [2, 4_000],
      [3, 8_000],
      [12, 600_000],
      [40, 600_000],
    ] as const) {
      for (let i = 0; i < 50; i++) {
        const d = backoffMs(attempt)
        expect(d).toBeGreaterThanOrEqual(ms * 0.85)
        expect(d).toBeLessThanOrEqual(ms * 1.15)
      }
    }
  })
})

describe("a notification's retry delay from a configured base", () => {
  it("doubles from the base and keeps the 10-minute cap", () => {
    for (const [attempt, ms] of [
      [1, 50],
      [2, 100],
      [5, 800],
      [30, 600_000],
    ] as const) {
      const d = backoffMs(attempt, 50)
      expect(d).toBeGreaterThanOrEqual(ms * 0.85)
      expect(d).toBeLessThanOrEqual(ms * 1.15)
    }
  })
})
