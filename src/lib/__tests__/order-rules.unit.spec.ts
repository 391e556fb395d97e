import {
  abandonedOrderAsked,
  abandonedOrderStep,
  asksForTheRest,
  listsToPayBack,
  notCanceledItem,
  otherPaymentSays,
  refundsInMedusa,
  restMayBeOwed,
  stillUnpaid,
  unpaidOrderAction,
  type AbandonedOrderFacts,
} from "../order-rules"

const ODEME = "pp_odeme-transfer_odeme"
const OTHER = "pp_system_default"

describe("a canceled order's money", () => {
  it.each([
    [true, "refund", true],
    [true, "reject", false],
    [true, "manual", true],
    [false, "refund", false],
    [false, "reject", false],
  ] as const)("holds %s, refunds %s → refunded in Medusa %s", (holds, refunds, out) => {
    expect(refundsInMedusa({ holds, refunds })).toBe(out)
  })

  it.each([
    [true, true, true],
    [true, false, false],
    [false, true, false],
    [false, false, false],
  ] as const)("holds after %s, row found %s → listed %s", (holds_after, row_found, out) => {
    expect(listsToPayBack({ holds_after, row_found })).toBe(out)
  })
})

describe("an unpaid transfer's order", () => {
  const base = { enabled: true, flow: "transfer_api", order_id: "order_1", cart_id: "cart_1", order_status: "pending" }

  it("a pending order of the transfer's own cart is canceled", () => {
    expect(unpaidOrderAction(base)).toEqual({ do: "cancel" })
  })

  it.each([
    ["the merchant keeps such orders", { enabled: false }],
    ["a card payment", { flow: "card" }],
    ["a transfer page payment", { flow: "transfer_page" }],
    ["no order", { order_id: null }],
    ["a balance (no cart)", { cart_id: null }],
    ["canceled already", { order_status: "canceled" }],
  ])("%s → nothing", (_, change) => {
    expect(unpaidOrderAction({ ...base, ...change })).toEqual({ do: "nothing" })
  })

  it.each(["completed", "archived", "requires_action", "draft"])("an order %s by a person is listed", (status) => {
    expect(unpaidOrderAction({ ...base, order_status: status })).toEqual({ do: "list", reason: `the order is ${status}` })
  })

  it("an order whose status is unknown is listed", () => {
    expect(unpaidOrderAction({ ...base, order_status: null })).toEqual({ do: "list", reason: "the order is null" })
  })

  it.each([
    ["expired", "expired", true],
    ["expired", "paid", false],
    ["failed", "failed", true],
    ["failed", null, false],
    ["failed", undefined, false],
  ] as const)("written %s, now %s → still unpaid %s", (then, now, out) => {
    expect(stillUnpaid(then, now)).toBe(out)
  })

  it.each([
    ["canceled", "forget"],
    ["pending", "keep"],
    ["completed", "keep"],
    [null, "keep"],
    [undefined, "keep"],
  ] as const)("order now %s → item %s", (status, out) => {
    expect(notCanceledItem(status)).toBe(out)
  })
})

describe("an abandoned order", () => {
  const asked = { cancel_on_expiry: true, flow: "transfer_api", status: "canceled", order_id: "order_1", cart_id: "cart_1" }

  it("an API transfer Medusa canceled, with its own order, is asked about", () => {
    expect(abandonedOrderAsked(asked)).toBe(true)
  })

  it.each([
    ["the merchant keeps such orders", { cancel_on_expiry: false }],
    ["a card payment", { flow: "card" }],
    ["a transfer still awaited", { status: "awaiting_transfer" }],
    ["an expired transfer (its own path)", { status: "expired" }],
    ["no order", { order_id: null }],
    ["a balance (no cart)", { cart_id: null }],
  ])("%s → not asked", (_, change) => {
    expect(abandonedOrderAsked({ ...asked, ...change })).toBe(false)
  })

  const order: AbandonedOrderFacts = {
    found: true,
    status: "pending",
    own_cart: true,
    collection_statuses: ["not_paid", "awaiting", "canceled"],
    other_sessions: [
      { provider_id: ODEME, status: "pending" },
      { provider_id: OTHER, status: "canceled" },
      { provider_id: OTHER, status: "error" },
    ],
  }

  it("a pending unpaid order with nothing else live asks the plugin's other payments", () => {
    expect(abandonedOrderStep(order)).toEqual({ do: "ask_others" })
    expect(abandonedOrderStep({ ...order, collection_statuses: [], other_sessions: [] })).toEqual({ do: "ask_others" })
  })

  it.each([
    ["not found", { found: false }],
    ["canceled", { status: "canceled" }],
    ["another cart's", { own_cart: false }],
    ["authorized", { collection_statuses: ["not_paid", "authorized"] }],
    ["partly captured", { collection_statuses: ["partially_captured"] }],
    ["completed collection", { collection_statuses: ["completed"] }],
  ])("%s → done", (_, change) => {
    expect(abandonedOrderStep({ ...order, ...change })).toEqual({ do: "done" })
  })

  it("a paid collection wins over an order a person completed", () => {
    expect(abandonedOrderStep({ ...order, status: "completed", collection_statuses: ["completed"] })).toEqual({ do: "done" })
  })

  it.each(["completed", "archived", "requires_action"])("an order %s by a person is listed", (status) => {
    expect(abandonedOrderStep({ ...order, status })).toEqual({ do: "list", reason: `the order is ${status}` })
  })

  it("a person's status wins over another provider's live session", () => {
    const facts = { ...order, status: "completed", other_sessions: [{ provider_id: OTHER, status: "pending" }] }
    expect(abandonedOrderStep(facts)).toEqual({ do: "list", reason: "the order is completed" })
  })

  it.each(["pending", "authorized", "requires_more", null])("another provider's session %s is the merchant's to decide", (status) => {
    const facts = { ...order, other_sessions: [...order.other_sessions, { provider_id: OTHER, status }] }
    expect(abandonedOrderStep(facts)).toEqual({ do: "list", reason: `another payment method (${OTHER}) was chosen for the order` })
  })

  it("the plugin's own live sessions are asked about, not listed", () => {
    const facts = { ...order, other_sessions: [{ provider_id: "pp_odeme-checkout_shop", status: "pending" }] }
    expect(abandonedOrderStep(facts)).toEqual({ do: "ask_others" })
  })

  it.each([
    ["paid", false, "done"],
    ["paid", true, "done"],
    ["review", false, "done"],
    ["awaiting_transfer", false, "wait"],
    ["unknown", false, "wait"],
    ["unknown", true, "next"],
    ["pending", false, "ask_paying"],
    ["pending", true, "ask_paying"],
    ["failed", false, "ask_paying"],
    ["canceled", false, "next"],
    ["expired", false, "next"],
  ] as const)("another payment %s (resolved %s) → %s", (status, resolved, out) => {
    expect(otherPaymentSays({ status, resolved })).toBe(out)
  })
})

describe("the rest of an edited order", () => {
  const may = { order_id: "order_1", order_canceled: false, collection_id: "paycol_1", collection_status: "partially_authorized" }

  it("a payment that paid part of its order's collection may leave a rest", () => {
    expect(restMayBeOwed(may)).toBe(true)
  })

  it.each([
    ["no order", { order_id: null }],
    ["canceled", { order_canceled: true }],
    ["no collection", { collection_id: null }],
    ["paid in whole", { collection_status: "completed" }],
    ["authorized", { collection_status: "authorized" }],
    ["status unknown", { collection_status: null }],
  ])("%s → nothing to ask", (_, change) => {
    expect(restMayBeOwed({ ...may, ...change })).toBe(false)
  })

  const rest = {
    order_status: "pending",
    owes: true as boolean | null,
    collections: [
      { id: "paycol_1", status: "partially_authorized" },
      { id: "paycol_0", status: "completed" },
      { id: "paycol_x", status: "canceled" },
    ],
    collection_id: "paycol_1",
  }

  it("an order that owes, whose one open collection is this partly authorized one, is asked for the rest", () => {
    expect(asksForTheRest(rest)).toBe(true)
  })

  it.each([
    ["canceled", { order_status: "canceled" }],
    ["owes nothing", { owes: false }],
    ["its summary does not say", { owes: null }],
    ["another open collection", { collections: [...rest.collections, { id: "paycol_2", status: "not_paid" }] }],
    ["another awaiting collection", { collections: [...rest.collections, { id: "paycol_2", status: "awaiting" }] }],
    ["another authorized collection", { collections: [...rest.collections, { id: "paycol_2", status: "authorized" }] }],
    ["the open one is another", { collection_id: "paycol_0" }],
    ["closed already (a re-run)", { collections: [{ id: "paycol_1", status: "partially_captured" }] }],
    ["open, not partly authorized", { collections: [{ id: "paycol_1", status: "not_paid" }] }],
    ["no collection", { collections: [] }],
  ])("%s → not asked", (_, change) => {
    expect(asksForTheRest({ ...rest, ...change })).toBe(false)
  })

  it.each(["not_paid", "awaiting", "authorized"])("a %s collection of its own is open but not partly authorized → not asked", (status) => {
    expect(asksForTheRest({ ...rest, collections: [{ id: "paycol_1", status }] })).toBe(false)
  })
})
