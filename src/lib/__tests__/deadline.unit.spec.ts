import { withDeadline } from "../deadline"

describe("withDeadline", () => {
  it("answers with the work when it settles in time, its value or its own error", async () => {
    await expect(withDeadline(Promise.resolve(42), 1_000, "the database")).resolves.toBe(42)
    await expect(withDeadline(Promise.reject(new Error("refused")), 1_000, "the database")).rejects.toThrow("refused")
  })

  it("rejects, naming what was late, once the time is up; a later failure of the work is not left unhandled", async () => {
    let fail: (e: Error) => void = () => {}
    const late = new Promise<never>((_, reject) => (fail = reject))
    await expect(withDeadline(late, 20, "the database")).rejects.toThrow("the database did not answer within 20 ms")
    fail(new Error("too late"))
    await new Promise((r) => setImmediate(r))
  })
})
