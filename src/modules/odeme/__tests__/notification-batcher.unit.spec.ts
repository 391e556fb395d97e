import { NotificationBatcher } from "../notification-batcher"

/** A write whose statements the test finishes by hand, recording each batch it was given. */
function manualWrite() {
  const calls: Array<{ inputs: number[]; finish: (fail?: unknown) => void }> = []
  const write = (inputs: number[]) =>
    new Promise<string[]>((resolve, reject) => {
      calls.push({ inputs, finish: (fail) => (fail ? reject(fail) : resolve(inputs.map((i) => `row${i}`))) })
    })
  return { calls, write }
}

/** Two turns of the event loop: a finished write's promise chain schedules the next statement, which then starts. */
const tick = () => new Promise((r) => setImmediate(() => setImmediate(r)))

describe("NotificationBatcher", () => {
  it("writes a notification alone at once when nothing is in flight (after this turn's I/O)", async () => {
    const { calls, write } = manualWrite()
    const batcher = new NotificationBatcher(write)
    const answer = batcher.add(1)
    expect(calls).toHaveLength(0)
    await tick()
    expect(calls.map((c) => c.inputs)).toEqual([[1]])
    calls[0].finish()
    await expect(answer).resolves.toBe("row1")
  })

  it("gives what arrives in the same turn of the event loop one statement", async () => {
    const { calls, write } = manualWrite()
    const batcher = new NotificationBatcher(write)
    const answers = [1, 2, 3].map((i) => batcher.add(i))
    await tick()
    expect(calls.map((c) => c.inputs)).toEqual([[1, 2, 3]])
    calls[0].finish()
    await expect(Promise.all(answers)).resolves.toEqual(["row1", "row2", "row3"])
  })

  it("gathers what arrives while a write is in flight into the next statement, each with its own answer", async () => {
    const { calls, write } = manualWrite()
    const batcher = new NotificationBatcher(write)
    const first = batcher.add(1)
    await tick()
    const answers = [first, ...[2, 3, 4, 5].map((i) => batcher.add(i))]
    await tick()
    expect(calls.map((c) => c.inputs)).toEqual([[1]])
    calls[0].finish()
    await tick()
    expect(calls.map((c) => c.inputs)).toEqual([[1], [2, 3, 4, 5]])
    calls[1].finish()
    await expect(Promise.all(answers)).resolves.toEqual(["row1", "row2", "row3", "row4", "row5"])
  })

  it("keeps a statement to 100 notifications", async () => {
    const { calls, write } = manualWrite()
    const batcher = new NotificationBatcher(write)
    const first = batcher.add(0)
    await tick()
    const answers = [first, ...Array.from({ length: 251 }, (_, i) => batcher.add(i + 1))]
    calls[0].finish()
    for (let i = 1; i < 4; i++) {
      await tick()
      calls[i].finish()
    }
    await Promise.all(answers)
    expect(calls.map((c) => c.inputs.length)).toEqual([1, 100, 100, 51])
  })

  it("splits a statement PostgreSQL refused for a row's content in halves, one after the other, so only that row fails", async () => {
    const poisoned = Object.assign(new Error("invalid input syntax for type json"), { code: "22P02" })
    const sizes: number[] = []
    let running = 0
    let peak = 0
    const hold = new Promise<void>((r) => setTimeout(r, 5))
    const write = async (inputs: number[]) => {
      sizes.push(inputs.length)
      peak = Math.max(peak, ++running)
      try {
        await hold
        if (inputs.includes(42)) throw poisoned
        return inputs.map((i) => `row${i}`)
      } finally {
        running--
      }
    }
    const batcher = new NotificationBatcher(write)
    const answers = Array.from({ length: 102 }, (_, i) => batcher.add(i).catch((err) => err))
    const out = await Promise.all(answers)
    expect(out.filter((o) => o === poisoned)).toHaveLength(1)
    expect(out[42]).toBe(poisoned)
    expect(out.filter((o) => typeof o === "string")).toHaveLength(101)
    // The shared 100 + the last two + halves down to the one row (7 levels, 2 each): far from a statement per row.
    expect(sizes.slice(0, 2)).toEqual([100, 50])
    expect(sizes.length).toBeLessThanOrEqual(2 + 2 * 7)
    expect(peak).toBe(1)
  })

  it("does not try rows again one by one when the database itself failed, and keeps to one statement in flight", async () => {
    const { calls, write } = manualWrite()
    const batcher = new NotificationBatcher(write)
    const answers = Array.from({ length: 202 }, (_, i) => batcher.add(i).catch((err) => err))
    const down = new Error("Knex: Timeout acquiring a connection. The pool is probably full.")
    const sizes: number[] = []
    await tick()
    for (let call = calls.shift(); call; await tick(), call = calls.shift()) {
      expect(calls).toHaveLength(0)
      sizes.push(call.inputs.length)
      call.finish(down)
    }
    expect(sizes).toEqual([100, 100, 2])
    expect(await Promise.all(answers)).toEqual(Array(202).fill(down))
  })

  it("refuses at once beyond 1,000 waiting, and refuses instead of writing what waited longer than the route's 5 s", async () => {
    // The clock is fake; setImmediate, which starts each statement, is not.
    jest.useFakeTimers({ now: 0, doNotFake: ["setImmediate"] })
    try {
      const { calls, write } = manualWrite()
      const batcher = new NotificationBatcher(write)
      const answers = Array.from({ length: 1_003 }, (_, i) => batcher.add(i).catch((err: Error) => err.message))
      await tick()
      expect(calls).toHaveLength(1)
      expect(await answers[1_002]).toMatch(/1000 notifications already wait/)
      jest.setSystemTime(5_001)
      const late = batcher.add(9_999)
      calls[0].finish()
      await tick()
      // All that waited since 0 were refused when the fresh one arrived; only it is written next.
      expect(await answers[500]).toMatch(/waited more than 5000 ms/)
      expect(calls[1].inputs).toEqual([9_999])
      calls[1].finish()
      await expect(late).resolves.toBe("row9999")
    } finally {
      jest.useRealTimers()
    }
  })

  it("unbounded (Medusa's generic hook route, which has answered already): refuses none, however many wait and however long", async () => {
    jest.useFakeTimers({ now: 0, doNotFake: ["setImmediate"] })
    try {
      const { calls, write } = manualWrite()
      const batcher = new NotificationBatcher(write, { bounded: false })
      const answers = Array.from({ length: 1_003 }, (_, i) => batcher.add(i).catch((err: Error) => err.message))
      await tick()
      jest.setSystemTime(60_000)
      const late = batcher.add(9_999)
      const written: number[] = []
      for (let call = calls.shift(); call; await tick(), call = calls.shift()) {
        // Still one statement in flight, a hundred rows at most.
        expect(calls).toHaveLength(0)
        expect(call.inputs.length).toBeLessThanOrEqual(100)
        written.push(...(call.inputs as number[]))
        call.finish()
      }
      expect(written).toHaveLength(1_004)
      expect(await answers[1_002]).toBe("row1002")
      await expect(late).resolves.toBe("row9999")
    } finally {
      jest.useRealTimers()
    }
  })

  it("passes a lone write's failure to its caller", async () => {
    const batcher = new NotificationBatcher(async () => {
      throw new Error("database unavailable")
    })
    await expect(batcher.add(1)).rejects.toThrow("database unavailable")
  })
})
