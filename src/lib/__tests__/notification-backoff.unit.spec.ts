import { backoffMs } from "../../workflows/process-notification"

// backoffMs rounds to whole milliseconds, so a delay at the edge of its ±15 % may round onto the bound:
// the bounds are whole milliseconds too (100 × 1.15 is 114.99999999999999 in floating point, and 115 is in range).
const within15 = (d: number, ms: number) => {
  expect(d).toBeGreaterThanOrEqual(Math.floor(ms * 0.85))
  expect(d).toBeLessThanOrEqual(Math.ceil(ms * 1.15))
}

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
        within15(backoffMs(attempt), ms)
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
      // Many draws: one draw per attempt let an edge case through only now and then.
      for (let i = 0; i < 200; i++) within15(backoffMs(attempt, 50), ms)
    }
  })
})

describe("a notification's retry delay at the edges of its jitter", () => {
  afterEach(() => jest.restoreAllMocks())

  it("stays within 15 % of its time at the lowest and the highest draw", () => {
    for (const draw of [0, 0.9999999]) {
      jest.spyOn(Math, "random").mockReturnValue(draw)
      for (const [attempt, ms] of [
        [1, 50],
        [2, 100],
        [3, 200],
      ] as const)
        within15(backoffMs(attempt, 50), ms)
    }
  })
})
