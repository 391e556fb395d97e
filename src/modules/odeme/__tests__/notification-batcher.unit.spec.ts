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

const tick = () => new Promise((r) => setImmediate(r))

describe("NotificationBatcher", () => {
  it("writes a notification alone at once when nothing is in flight", async () => {
    const { calls, write } = manualWrite()
    const batcher = new NotificationBatcher(write)
    const answer = batcher.add(1)
    expect(calls.map((c) => c.inputs)).toEqual([[1]])
    calls[0].finish()
    await expect(answer).resolves.toBe("row1")
  })

  it("gathers what arrives while two writes are in flight into the next statement, each with its own answer", async () => {
    const { calls, write } = manualWrite()
    const batcher = new NotificationBatcher(write)
    const answers = [1, 2, 3, 4, 5].map((i) => batcher.add(i))
    expect(calls.map((c) => c.inputs)).toEqual([[1], [2]])
    calls[0].finish()
    await tick()
    expect(calls.map((c) => c.inputs)).toEqual([[1], [2], [3, 4, 5]])
    calls[1].finish()
    calls[2].finish()
    await expect(Promise.all(answers)).resolves.toEqual(["row1", "row2", "row3", "row4", "row5"])
  })

  it("keeps a statement to 100 notifications", async () => {
    const { calls, write } = manualWrite()
    const batcher = new NotificationBatcher(write)
    const answers = Array.from({ length: 252 }, (_, i) => batcher.add(i))
    calls[0].finish()
    calls[1].finish()
    for (let i = 2; i < 5; i++) {
      await tick()
      calls[i].finish()
    }
    await Promise.all(answers)
    expect(calls.map((c) => c.inputs.length)).toEqual([1, 1, 100, 100, 50])
  })

  it("writes each notification of a failed statement alone, so one that cannot be stored costs the others nothing", async () => {
    const poisoned = new Error("cannot store 4")
    const write = jest.fn(async (inputs: number[]) => {
      if (inputs.includes(4)) throw poisoned
      return inputs.map((i) => `row${i}`)
    })
    const batcher = new NotificationBatcher(write)
    const hold = new Promise<void>((r) => setTimeout(r, 5))
    write.mockImplementationOnce(async (inputs) => (await hold, inputs.map((i) => `row${i}`)))
    write.mockImplementationOnce(async (inputs) => (await hold, inputs.map((i) => `row${i}`)))
    const answers = [1, 2, 3, 4, 5].map((i) => batcher.add(i).catch((err) => err))
    expect(await Promise.all(answers)).toEqual(["row1", "row2", "row3", poisoned, "row5"])
    expect(write.mock.calls.map(([inputs]) => inputs)).toEqual([[1], [2], [3, 4, 5], [3], [4], [5]])
  })

  it("passes a lone write's failure to its caller", async () => {
    const batcher = new NotificationBatcher(async () => {
      throw new Error("database unavailable")
    })
    await expect(batcher.add(1)).rejects.toThrow("database unavailable")
  })
})
