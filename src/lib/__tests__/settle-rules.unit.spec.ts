import {
  afterCapture,
  captureRecheck,
  linksCart,
  readsAfterCapture,
  settleAction,
  settleEnd,
  settleFinding,
  transitionFacts,
  type AfterCapture,
  type CaptureRecheck,
  type SettleAction,
  type SettleFacts,
} from "../settle-rules"

const FACT_NAMES = ["session_found", "order_canceled", "settled", "paid_by_others", "has_payment"] as const

/** Every combination of the read's five facts. */
function everyFacts(): SettleFacts[] {
  const out: SettleFacts[] = []
  for (let bits = 0; bits < 1 << FACT_NAMES.length; bits++) {
    const f = {} as Record<(typeof FACT_NAMES)[number], boolean>
    FACT_NAMES.forEach((name, i) => (f[name] = !!(bits & (1 << i))))
    out.push(f)
  }
  return out
}

/** The table as docs/design.md tells it: the first fact that holds, in this order, decides. */
function expected(f: SettleFacts): SettleAction {
  if (!f.session_found) return "session_gone"
  if (f.order_canceled) return "order_canceled"
  if (f.settled) return "settled"
  if (f.paid_by_others) return "already_paid"
  return f.has_payment ? "capture_existing" : "process_payment"
}

describe("settleAction: every cell of the first decision", () => {
  it.each(everyFacts().map((f) => [JSON.stringify(f), f] as const))("%s", (_, f) => {
    expect(settleAction(f)).toBe(expected(f))
  })

  it("a canceled order wins over settled: a capture on a canceled order is given back", () => {
    expect(settleAction({ session_found: true, order_canceled: true, settled: true, paid_by_others: true, has_payment: true })).toBe("order_canceled")
  })

  it("settled wins over paid by others: which capture is the order's, the transactions say", () => {
    expect(settleAction({ session_found: true, order_canceled: false, settled: true, paid_by_others: true, has_payment: true })).toBe("settled")
  })

  it("a session Medusa no longer has is gone whatever else was read", () => {
    expect(settleAction({ session_found: false, order_canceled: true, settled: true, paid_by_others: true, has_payment: true })).toBe("session_gone")
  })
})

describe("captureRecheck: under the cart's lock", () => {
  it.each([
    [false, false, "capture"],
    [false, true, "already_paid"],
    [true, false, "settled"],
    [true, true, "settled"],
  ] as const)("settled %s, paid by others %s → %s", (settled, paid_by_others, out) => {
    expect(captureRecheck({ settled, paid_by_others })).toBe(out)
  })
})

describe("readsAfterCapture", () => {
  const RECHECKS = ["settled", "already_paid", "capture", undefined] as const
  for (const action of ["session_gone", "order_canceled", "settled", "already_paid", "capture_existing", "process_payment"] as const) {
    for (const recheck of RECHECKS) {
      const out = action === "process_payment" || (action === "capture_existing" && recheck !== "already_paid")
      it(`${action}, re-check ${recheck} → ${out}`, () => {
        expect(readsAfterCapture(action, recheck)).toBe(out)
      })
    }
  }
})

describe("afterCapture", () => {
  it.each([
    [true, "cart", null, "order_canceled"],
    [true, "cart", "order", "order_canceled"],
    [true, null, null, "order_canceled"],
    [false, "cart", null, "complete_cart"],
    [false, "cart", "order", "check"],
    [false, null, "order", "check"],
    [false, null, null, "check"],
  ] as const)("canceled %s, cart %s, order %s → %s", (order_canceled, cart_id, order_id, out) => {
    expect(afterCapture({ order_canceled, cart_id, order_id })).toBe(out)
  })
})

describe("settleEnd", () => {
  it.each(["session_gone", "order_canceled", "settled", "already_paid"] as const)("%s before acting is the end, whatever came after", (action) => {
    expect(settleEnd({ action, recheck: "capture", after: "check", settled_at_last: false })).toBe(action)
    expect(settleEnd({ action, recheck: "capture", after: "check", settled_at_last: true })).toBe(action)
  })

  const ACTED: SettleAction[] = ["capture_existing", "process_payment"]
  const AFTER: AfterCapture[] = ["order_canceled", "complete_cart", "check"]
  for (const action of ACTED) {
    for (const after of AFTER) {
      for (const settled_at_last of [false, true]) {
        const out = after === "order_canceled" ? "order_canceled" : settled_at_last ? "settled" : "not_yet"
        it(`${action}, after ${after}, settled at last ${settled_at_last} → ${out}`, () => {
          const recheck: CaptureRecheck | undefined = action === "capture_existing" ? "capture" : undefined
          expect(settleEnd({ action, recheck, after, settled_at_last })).toBe(out)
        })
      }
    }
  }

  it("an existing payment found paid by others under the cart's lock is already paid", () => {
    expect(settleEnd({ action: "capture_existing", recheck: "already_paid" })).toBe("already_paid")
    expect(settleEnd({ action: "capture_existing", recheck: "already_paid", after: "check", settled_at_last: true })).toBe("already_paid")
  })

  it("an existing payment found settled under the cart's lock is read again like a capture", () => {
    expect(settleEnd({ action: "capture_existing", recheck: "settled", after: "check", settled_at_last: true })).toBe("settled")
    expect(settleEnd({ action: "capture_existing", recheck: "settled", after: "order_canceled", settled_at_last: true })).toBe("order_canceled")
  })

  it("a re-check only counts for an existing payment", () => {
    expect(settleEnd({ action: "process_payment", recheck: "already_paid", after: "check", settled_at_last: true })).toBe("settled")
  })

  it("nothing read after acting is not settled", () => {
    expect(settleEnd({ action: "process_payment" })).toBe("not_yet")
  })
})

describe("settleFinding", () => {
  it("settled tells the transition table nothing", () => {
    expect(settleFinding("settled", false, "u1")).toBeNull()
    expect(settleFinding("settled", true, "u1")).toBeNull()
  })

  it("a cart paid by another payment is already_paid, naming this payment's uuid", () => {
    expect(settleFinding("already_paid", false, "u1")).toEqual({ kind: "already_paid", uuid: "u1" })
  })

  it("a canceled order carries whether this payment's money was captured", () => {
    expect(settleFinding("order_canceled", true, "u1")).toEqual({ kind: "order_canceled", uuid: "u1", captured: true })
    expect(settleFinding("order_canceled", false, null)).toEqual({ kind: "order_canceled", uuid: null, captured: false })
  })
})

describe("linksCart", () => {
  it.each([
    [null, null, false],
    [undefined, null, false],
    ["cart_1", null, false],
    [null, "cart_1", true],
    [undefined, "cart_1", true],
    ["cart_1", "cart_1", false],
    ["cart_2", "cart_1", true],
    ["", "cart_1", true],
  ] as const)("row %s, Medusa %s → %s", (row, medusa, out) => {
    expect(linksCart(row, medusa)).toBe(out)
  })
})

describe("transitionFacts", () => {
  const base = {
    session_found: true,
    session_status: "authorized",
    captured: false,
    order_canceled: false,
    paid_by_others: false,
    refunded_in_medusa: false,
  }

  it("passes what it read on", () => {
    expect(transitionFacts(base)).toEqual({
      session_alive: true,
      order_canceled: false,
      paid_elsewhere: false,
      refunded_in_medusa: false,
      captured: false,
    })
    expect(transitionFacts({ ...base, order_canceled: true, refunded_in_medusa: true, captured: true })).toEqual({
      session_alive: true,
      order_canceled: true,
      paid_elsewhere: false,
      refunded_in_medusa: true,
      captured: true,
    })
  })

  it.each([
    [false, "authorized", false],
    [false, null, false],
    [true, "canceled", false],
    [true, "authorized", true],
    [true, "pending", true],
    [true, null, true],
  ] as const)("found %s, status %s → alive %s", (session_found, session_status, alive) => {
    expect(transitionFacts({ ...base, session_found, session_status }).session_alive).toBe(alive)
  })

  it.each([
    // alive, captured, canceled, others → paid elsewhere
    [true, false, false, true, true],
    [true, false, false, false, false],
    [true, true, false, true, false],
    [true, false, true, true, false],
    [false, false, false, true, false],
  ] as const)("alive %s, captured %s, canceled %s, paid by others %s → paid elsewhere %s", (alive, captured, order_canceled, paid_by_others, out) => {
    const f = transitionFacts({ ...base, session_found: alive, captured, order_canceled, paid_by_others })
    expect(f.paid_elsewhere).toBe(out)
  })

  it("a canceled session is not paid elsewhere", () => {
    expect(transitionFacts({ ...base, session_status: "canceled", paid_by_others: true }).paid_elsewhere).toBe(false)
  })
})
