import { ingestQuiet, noteIngest } from "../ingest-quiet"

/** Whether the promise has settled once the fake clock moved by `ms`. */
async function settledAfter(p: Promise<unknown>, ms: number): Promise<boolean> {
  let settled = false
  void p.then(() => (settled = true))
  await jest.advanceTimersByTimeAsync(ms)
  return settled
}

describe("processing waits while webhooks are acknowledged", () => {
  beforeEach(() => jest.useFakeTimers())
  afterEach(() => jest.useRealTimers())

  it("waits while a webhook is between arrival and answer, however long since the last arrival", async () => {
    const acknowledged = noteIngest()
    const quiet = ingestQuiet()
    expect(await settledAfter(quiet, 500)).toBe(false)
    acknowledged()
    expect(await settledAfter(quiet, 10)).toBe(false)
    expect(await settledAfter(quiet, 10)).toBe(true)
  })

  it("waits for the last of overlapping webhooks, and counts each one's end once", async () => {
    const first = noteIngest()
    const second = noteIngest()
    const quiet = ingestQuiet()
    first()
    first()
    expect(await settledAfter(quiet, 100)).toBe(false)
    second()
    expect(await settledAfter(quiet, 30)).toBe(true)
  })

  it("does not wait for ever behind a webhook that never gets its answer", async () => {
    const stuck = noteIngest()
    const quiet = ingestQuiet()
    expect(await settledAfter(quiet, 1_900)).toBe(false)
    expect(await settledAfter(quiet, 200)).toBe(true)
    stuck()
  })

  it("starts at once when nothing came in lately", async () => {
    noteIngest()()
    await jest.advanceTimersByTimeAsync(50)
    expect(await settledAfter(ingestQuiet(), 0)).toBe(true)
  })
})
