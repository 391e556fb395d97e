import { PAYMENT_STATES, type PaymentState, type ReviewCode } from "../../../modules/odeme/models/states"
import { decide, type Decision, type PaymentFacts, type ServiceAnswer } from "../transitions"

const U1 = "uuid-1" // the payment's own service payment
const U2 = "uuid-2" // another service payment for the same session

const ANSWERS: Record<string, ServiceAnswer> = {
  created: { kind: "created", uuid: U1 },
  creation_unknown: { kind: "creation_unknown", detail: "timeout" },
  pending: { kind: "pending", uuid: U1 },
  "paid(own)": { kind: "paid", uuid: U1, amount: "250.00", currency: "TRY" },
  "paid(other)": { kind: "paid", uuid: U2, amount: "250.00", currency: "TRY" },
  "mismatch(own)": { kind: "mismatch", uuid: U1, amount: "1.00", currency: "TRY", reason: "amount" },
  "mismatch(other)": { kind: "mismatch", uuid: U2, amount: "1.00", currency: "TRY", reason: "amount" },
  "failed(own)": { kind: "failed", uuid: U1 },
  "failed(other)": { kind: "failed", uuid: U2 },
  invalid: { kind: "invalid", reason: "is_valid false" },
  expired: { kind: "expired" },
  canceled: { kind: "canceled" },
  "order_canceled(captured)": { kind: "order_canceled", uuid: U1, captured: true },
  "order_canceled(uncaptured)": { kind: "order_canceled", uuid: U1, captured: false },
  already_paid: { kind: "already_paid", uuid: U1 },
  sandbox_paid: { kind: "sandbox_paid", uuid: U1 },
}

type Row = [to: PaymentState | "=", action: Decision["action"], charge: Decision["charge"], outcome: Decision["outcome"], review?: ReviewCode]

/**
 * The table as docs/design.md writes it: for a payment whose own uuid is U1
 * (none for `pending`), each answer → [new state ("=" unchanged), Medusa
 * action, charge role recorded, notification outcome, review code].
 */
const TABLE: Record<string, Record<string, Row>> = {
  pending: {
    created: ["awaiting_transfer", "none", "none", "created"],
    creation_unknown: ["unknown", "none", null, "unknown"],
    pending: ["=", "none", "keep", "pending"],
    "paid(own)": ["paid", "settle", "primary", "paid"],
    "paid(other)": ["paid", "settle", "primary", "paid"],
    "mismatch(own)": ["review", "none", "rejected", "rejected", "amount_mismatch"],
    "mismatch(other)": ["review", "none", "rejected", "rejected", "amount_mismatch"],
    "failed(own)": ["failed", "cancel_order", "none", "failed"],
    "failed(other)": ["failed", "cancel_order", "none", "failed"],
    invalid: ["=", "none", null, "rejected"],
    expired: ["=", "none", null, "unchanged"],
    canceled: ["canceled", "none", null, "canceled"],
    "order_canceled(captured)": ["canceled", "none", null, "canceled"],
    "order_canceled(uncaptured)": ["canceled", "none", null, "canceled"],
    already_paid: ["=", "none", null, "unchanged"],
    sandbox_paid: ["review", "none", "none", "review", "verify_refused_mode"],
  },
  awaiting_transfer: {
    created: ["=", "none", null, "unchanged"],
    creation_unknown: ["=", "none", null, "unchanged"],
    pending: ["=", "none", "keep", "pending"],
    "paid(own)": ["paid", "settle", "primary", "paid"],
    "paid(other)": ["paid", "settle", "primary", "paid"],
    "mismatch(own)": ["review", "none", "rejected", "rejected", "amount_mismatch"],
    "mismatch(other)": ["review", "none", "rejected", "rejected", "amount_mismatch"],
    "failed(own)": ["failed", "cancel_order", "none", "failed"],
    "failed(other)": ["=", "none", "none", "failed"],
    invalid: ["=", "none", null, "rejected"],
    expired: ["expired", "cancel_order", null, "expired"],
    canceled: ["canceled", "none", null, "canceled"],
    "order_canceled(captured)": ["canceled", "none", null, "canceled"],
    "order_canceled(uncaptured)": ["canceled", "none", null, "canceled"],
    already_paid: ["=", "none", null, "unchanged"],
    sandbox_paid: ["review", "none", "none", "review", "verify_refused_mode"],
  },
  unknown: {
    created: ["=", "none", null, "unchanged"],
    creation_unknown: ["=", "none", null, "unchanged"],
    pending: ["=", "none", "none", "pending"],
    "paid(own)": ["paid", "settle", "primary", "paid"],
    "paid(other)": ["paid", "settle", "primary", "paid"],
    "mismatch(own)": ["review", "none", "rejected", "rejected", "amount_mismatch"],
    "mismatch(other)": ["review", "none", "rejected", "rejected", "amount_mismatch"],
    "failed(own)": ["failed", "cancel_order", "none", "failed"],
    "failed(other)": ["failed", "cancel_order", "none", "failed"],
    invalid: ["=", "none", null, "rejected"],
    expired: ["=", "none", null, "unchanged"],
    canceled: ["=", "none", null, "unchanged"],
    "order_canceled(captured)": ["canceled", "none", null, "canceled"],
    "order_canceled(uncaptured)": ["canceled", "none", null, "canceled"],
    already_paid: ["=", "none", null, "unchanged"],
    sandbox_paid: ["review", "none", "none", "review", "verify_refused_mode"],
  },
  paid: {
    created: ["=", "none", null, "unchanged"],
    creation_unknown: ["=", "none", null, "unchanged"],
    pending: ["=", "none", "keep", "pending"],
    "paid(own)": ["=", "settle", "keep", "paid"],
    "paid(other)": ["=", "none", "duplicate", "duplicate_charge"],
    "mismatch(own)": ["=", "none", null, "rejected"],
    "mismatch(other)": ["=", "none", "duplicate", "duplicate_charge"],
    "failed(own)": ["review", "none", "keep", "review", "contradiction"],
    "failed(other)": ["=", "none", "none", "failed"],
    invalid: ["=", "none", null, "rejected"],
    expired: ["=", "none", null, "unchanged"],
    canceled: ["=", "none", null, "unchanged"],
    "order_canceled(captured)": ["=", "none", null, "unchanged"],
    "order_canceled(uncaptured)": ["review", "none", "late", "late_success", "late_success"],
    already_paid: ["review", "none", "late", "late_success", "already_paid"],
    sandbox_paid: ["=", "none", null, "rejected"],
  },
}
for (const s of ["failed", "canceled", "expired"] as const) {
  TABLE[s] = {
    created: ["=", "none", null, "unchanged"],
    creation_unknown: ["=", "none", null, "unchanged"],
    pending: ["=", "none", "keep", "pending"],
    "paid(own)": ["review", "none", "late", "late_success", "late_success"],
    "paid(other)": ["review", "none", "late", "late_success", "late_success"],
    "mismatch(own)": ["review", "none", "late", "late_success", "late_success"],
    "mismatch(other)": ["review", "none", "late", "late_success", "late_success"],
    "failed(own)": ["=", "none", "keep", "failed"],
    "failed(other)": ["=", "none", "none", "failed"],
    invalid: ["=", "none", null, "rejected"],
    expired: ["=", "none", null, "unchanged"],
    canceled: ["=", "none", null, "unchanged"],
    "order_canceled(captured)": ["=", "none", null, "unchanged"],
    "order_canceled(uncaptured)": ["=", "none", null, "unchanged"],
    already_paid: ["=", "none", null, "unchanged"],
    sandbox_paid: ["=", "none", null, "rejected"],
  }
}
// A failed attempt closes only its own service payment: another one's success pays (arrival order decides nothing).
TABLE.failed["paid(other)"] = ["paid", "settle", "primary", "paid"]
TABLE.review = {
  created: ["=", "none", null, "unchanged"],
  creation_unknown: ["=", "none", null, "unchanged"],
  pending: ["=", "none", "keep", "pending"],
  // (The review here is a contradiction Medusa never captured: its own payment confirmed again is late money. Other
  // reviews' own payment told again changes nothing: see "Medusa losing the session" below.)
  "paid(own)": ["=", "none", "late", "late_success"],
  "paid(other)": ["=", "none", "late", "late_success"],
  "mismatch(own)": ["=", "none", null, "rejected"],
  "mismatch(other)": ["=", "none", "late", "late_success"],
  "failed(own)": ["=", "none", "keep", "failed"],
  "failed(other)": ["=", "none", "none", "failed"],
  invalid: ["=", "none", null, "rejected"],
  expired: ["=", "none", null, "unchanged"],
  canceled: ["=", "none", null, "unchanged"],
  "order_canceled(captured)": ["=", "none", null, "unchanged"],
  "order_canceled(uncaptured)": ["=", "none", null, "unchanged"],
  already_paid: ["=", "none", null, "unchanged"],
  sandbox_paid: ["=", "none", null, "rejected"],
}

const facts = (status: PaymentState, review_code: ReviewCode | null = null): PaymentFacts => ({
  status,
  review_code: status === "review" ? (review_code ?? "contradiction") : null,
  primary_uuid: status === "pending" ? null : status === "unknown" ? null : U1,
})

describe("the transition table: every state × every answer", () => {
  it("has a row for every state and a cell for every answer", () => {
    expect(Object.keys(TABLE).sort()).toEqual([...PAYMENT_STATES].sort())
    for (const row of Object.values(TABLE)) expect(Object.keys(row).sort()).toEqual(Object.keys(ANSWERS).sort())
  })

  for (const state of PAYMENT_STATES) {
    for (const [name, answer] of Object.entries(ANSWERS)) {
      it(`${state} + ${name}`, () => {
        const p = facts(state)
        const [to, action, charge, outcome, review] = TABLE[state][name]
        const d = decide(p, answer, { session_alive: true })
        expect({ to: d.to, action: d.action, charge: d.charge, outcome: d.outcome }).toEqual({
          to: to === "=" ? state : to,
          action,
          charge,
          outcome,
        })
        if (review) expect(d.review_code).toBe(review)
        if (d.to !== state && d.to !== "review" && d.to !== "unknown") expect(d.review_code).toBeNull()
      })
    }
  }
})

describe("what the table promises about money", () => {
  const every = PAYMENT_STATES.flatMap((s) => Object.values(ANSWERS).map((a) => ({ s, a, d: decide(facts(s), a, { session_alive: true }) })))

  it("only a verified, matching success captures (settle), and never a second service payment", () => {
    for (const { s, a, d } of every) {
      if (d.action !== "settle") continue
      expect(a.kind).toBe("paid")
      if (s === "paid") expect((a as { uuid: string }).uuid).toBe(U1)
    }
  })

  it("a second verified success on a paid payment is a duplicate charge, with a warning", () => {
    const d = decide(facts("paid"), ANSWERS["paid(other)"], { session_alive: true })
    expect(d).toMatchObject({ to: "paid", action: "none", charge: "duplicate", warn: true })
  })

  it("a success on a session Medusa no longer has goes to review, not paid", () => {
    for (const s of ["pending", "awaiting_transfer", "unknown"] as const) {
      const d = decide(facts(s), ANSWERS["paid(own)"], { session_alive: false })
      expect(d).toMatchObject({ to: "review", review_code: "session_gone", action: "none", charge: "late", warn: true })
    }
  })

  it("a success on a session Medusa lost after capturing and refunding it in full: review, and no second item to give the money back", () => {
    for (const s of ["pending", "paid"] as const) {
      const d = decide(facts(s), ANSWERS["paid(own)"], { session_alive: false, refunded_in_medusa: true })
      expect(d).toMatchObject({ to: "review", review_code: "session_gone", action: "none", charge: "none", warn: true })
    }
    // Another service payment of that session is not what Medusa refunded: it is money to give back of its own.
    expect(decide(facts("awaiting_transfer"), ANSWERS["paid(other)"], { session_alive: false, refunded_in_medusa: true })).toMatchObject({
      review_code: "session_gone",
      charge: "late",
    })
  })

  it("a paid payment whose session Medusa lost before it was settled goes to review, never settled silently", () => {
    expect(decide(facts("paid"), ANSWERS["paid(own)"], { session_alive: false })).toMatchObject({
      to: "review",
      review_code: "session_gone",
      action: "none",
      warn: true,
    })
  })

  it("the charge of a paid payment whose session Medusa lost is money to give back (late), so it is listed", () => {
    expect(decide(facts("paid"), ANSWERS["paid(own)"], { session_alive: false })).toMatchObject({ charge: "late" })
  })

  it("a success for an order Medusa canceled is never captured: review, its charge late", () => {
    for (const s of ["pending", "awaiting_transfer", "unknown", "paid"] as const) {
      const d = decide(facts(s), ANSWERS["paid(own)"], { session_alive: true, order_canceled: true })
      expect(d).toMatchObject({ to: "review", review_code: "late_success", action: "none", charge: "late", warn: true })
    }
  })

  it("a success for a cart or balance another payment already paid (a second tab) is never captured: review, its charge late", () => {
    const elsewhere = { session_alive: true, paid_elsewhere: true }
    for (const s of ["pending", "awaiting_transfer", "unknown", "paid"] as const) {
      expect(decide(facts(s), ANSWERS["paid(own)"], elsewhere)).toMatchObject({
        to: "review",
        review_code: "already_paid",
        action: "none",
        charge: "late",
        warn: true,
      })
    }
    expect(decide(facts("failed"), ANSWERS["paid(other)"], elsewhere)).toMatchObject({
      to: "review",
      review_code: "already_paid",
      action: "none",
      charge: "late",
      warn: true,
    })
    // Found under settle's lock, after the payment was confirmed here.
    expect(decide(facts("paid"), ANSWERS.already_paid, { session_alive: true })).toMatchObject({
      to: "review",
      review_code: "already_paid",
      charge: "late",
      warn: true,
    })
  })

  it("a failed attempt closes only its own service payment: another one's success pays while Medusa's session can take it", () => {
    expect(decide(facts("failed"), ANSWERS["paid(other)"], { session_alive: true })).toMatchObject({
      to: "paid",
      action: "settle",
      charge: "primary",
      adopt_uuid: true,
    })
    expect(decide(facts("failed"), ANSWERS["paid(other)"], { session_alive: false })).toMatchObject({
      to: "review",
      review_code: "late_success",
      charge: "late",
    })
    expect(decide(facts("failed"), ANSWERS["paid(other)"], { session_alive: true, order_canceled: true })).toMatchObject({
      to: "review",
      charge: "late",
    })
    expect(decide(facts("failed"), ANSWERS["paid(own)"], { session_alive: true })).toMatchObject({ to: "review", review_code: "late_success" })
  })

  it("another wrong-amount copy on a wrong-amount review stays in review and is recorded rejected", () => {
    const p = { status: "review" as const, review_code: "amount_mismatch" as const, primary_uuid: null }
    expect(decide(p, ANSWERS["mismatch(other)"], { session_alive: true })).toMatchObject({
      to: "review",
      review_code: "amount_mismatch",
      action: "none",
      charge: "rejected",
      warn: true,
    })
  })

  it("an edited copy of the payment that paid is refused; nothing to do, so no warning (a warning always leaves an item)", () => {
    expect(decide(facts("paid"), ANSWERS["mismatch(own)"], { session_alive: true })).toMatchObject({
      to: "paid",
      action: "none",
      outcome: "rejected",
      warn: false,
    })
  })

  it("a review caused by a wrong amount is paid by the genuine notification that follows", () => {
    const p = { status: "review" as const, review_code: "amount_mismatch" as const, primary_uuid: null }
    expect(decide(p, ANSWERS["paid(own)"], { session_alive: true })).toMatchObject({ to: "paid", action: "settle", charge: "primary" })
  })

  it("a created transfer whose move to awaiting was not written is moved by its pending record", () => {
    const p = { status: "pending" as const, review_code: null, primary_uuid: U1 }
    expect(decide(p, ANSWERS.pending, { session_alive: true })).toEqual({
      to: "awaiting_transfer",
      review_code: null,
      action: "none",
      charge: "keep",
      adopt_uuid: false,
      outcome: "created",
      warn: false,
    })
  })

  it("a canceled order's own payment told again: captured, Medusa's cancel refunded it (that refund is the item); never captured, late money", () => {
    const canceled = { session_alive: true, order_canceled: true }
    expect(decide(facts("paid"), ANSWERS["paid(own)"], { ...canceled, captured: true })).toEqual({
      to: "paid",
      review_code: null,
      // Settle finds the cancel under its lock and gives back what the payment still holds, once.
      action: "settle",
      charge: null,
      adopt_uuid: false,
      outcome: "unchanged",
      warn: false,
    })
    expect(decide(facts("paid"), ANSWERS["paid(own)"], { ...canceled, captured: false })).toMatchObject({
      to: "review",
      review_code: "late_success",
      action: "none",
      charge: "late",
      warn: true,
    })
  })

  it("an expired transfer's money pays its order while Medusa says the order still waits; a canceled order's, or unread, is late money", () => {
    for (const a of [ANSWERS["paid(own)"], ANSWERS["paid(other)"]]) {
      expect(decide(facts("expired"), a, { session_alive: true, order_canceled: false })).toEqual({
        to: "paid",
        review_code: null,
        action: "settle",
        charge: "primary",
        adopt_uuid: true,
        outcome: "paid",
        warn: false,
      })
      expect(decide(facts("expired"), a, { session_alive: true, order_canceled: true })).toMatchObject({ to: "review", charge: "late" })
      expect(decide(facts("expired"), a, { session_alive: true })).toMatchObject({ to: "review", charge: "late" })
      expect(decide(facts("expired"), a, { session_alive: false, order_canceled: false })).toMatchObject({ to: "review", charge: "late" })
      expect(decide(facts("expired"), a, { session_alive: true, order_canceled: false, paid_elsewhere: true })).toMatchObject({ to: "review" })
    }
    expect(decide(facts("expired"), ANSWERS["mismatch(own)"], { session_alive: true, order_canceled: false })).toMatchObject({ to: "review" })
  })

  it("Medusa losing the session: the whole decision, open and paid", () => {
    expect(decide(facts("awaiting_transfer"), ANSWERS["paid(own)"], { session_alive: false })).toEqual({
      to: "review",
      review_code: "session_gone",
      action: "none",
      charge: "late",
      adopt_uuid: false,
      outcome: "late_success",
      warn: true,
    })
    expect(decide(facts("paid"), ANSWERS["paid(own)"], { session_alive: false })).toEqual({
      to: "review",
      review_code: "session_gone",
      action: "none",
      // The money has no order: its charge is money to give back (listed), no longer the session's payment.
      charge: "late",
      adopt_uuid: false,
      outcome: "late_success",
      warn: true,
    })
    expect(decide(facts("paid"), ANSWERS["paid(own)"], { session_alive: true })).toEqual({
      to: "paid",
      review_code: null,
      action: "settle",
      charge: "keep",
      adopt_uuid: false,
      outcome: "paid",
      warn: false,
    })
    // A review's own payment told again keeps the role the review gave it: money Medusa's compensation already
    // refunded (session_gone, "none") or already listed to give back is never made late a second time.
    for (const code of ["session_gone", "late_success", "already_paid"] as const) {
      expect(decide(facts("review", code), ANSWERS["paid(own)"], { session_alive: true })).toMatchObject({
        to: "review",
        outcome: "unchanged",
        charge: null,
        warn: false,
      })
      expect(decide(facts("review", code), ANSWERS["mismatch(own)"], { session_alive: true })).toMatchObject({
        to: "review",
        outcome: "rejected",
        charge: null,
      })
    }
    // The service confirms again a payment it had said failed: captured, the order has it (the contradiction item
    // stands); never captured, its money has no order and is listed to give back.
    expect(decide(facts("review", "contradiction"), ANSWERS["paid(own)"], { session_alive: true, captured: true })).toMatchObject({
      to: "review",
      outcome: "unchanged",
      charge: null,
    })
    expect(decide(facts("review", "contradiction"), ANSWERS["paid(own)"], { session_alive: true, captured: false })).toMatchObject({
      to: "review",
      outcome: "late_success",
      charge: "late",
      warn: true,
    })
    expect(decide(facts("review", "contradiction"), ANSWERS["paid(other)"], { session_alive: true })).toMatchObject({
      to: "review",
      outcome: "late_success",
      charge: "late",
    })
    expect(decide(facts("failed"), ANSWERS["paid(own)"], { session_alive: true })).toMatchObject({
      to: "review",
      review_code: "late_success",
      outcome: "late_success",
    })
    expect(decide(facts("failed"), ANSWERS["mismatch(own)"], { session_alive: true })).toMatchObject({
      to: "review",
      review_code: "late_success",
      outcome: "late_success",
    })
  })

  it("an unknown transfer learns its uuid from a pending notification", () => {
    expect(decide(facts("unknown"), ANSWERS.pending, { session_alive: true })).toMatchObject({ to: "unknown", adopt_uuid: true })
  })

  it("never leaves paid except to review", () => {
    for (const { s, d } of every) if (s === "paid") expect(["paid", "review"]).toContain(d.to)
  })
})

/**
 * The rest of each decision: W = said in the log as a warning (money that needs
 * a person), A = the answer's uuid becomes the payment's own, then the review
 * code ("-" none). Payments as above (own uuid U1; none for pending and unknown).
 */
const EXTRA: Record<string, Record<string, string>> = {
  pending: {
    created: "-A -",
    creation_unknown: "W- -",
    pending: "-- -",
    "pending(none)": "-- -",
    "paid(own)": "-A -",
    "paid(other)": "-A -",
    "mismatch(own)": "W- amount_mismatch",
    "mismatch(other)": "W- amount_mismatch",
    "failed(own)": "-A -",
    "failed(other)": "-A -",
    "failed(none)": "-- -",
    invalid: "-- -",
    expired: "-- -",
    canceled: "-- -",
  },
  awaiting_transfer: {
    created: "-- -",
    creation_unknown: "-- -",
    pending: "-- -",
    "pending(none)": "-- -",
    "paid(own)": "-A -",
    "paid(other)": "-A -",
    "mismatch(own)": "W- amount_mismatch",
    "mismatch(other)": "W- amount_mismatch",
    "failed(own)": "-- -",
    "failed(other)": "-- -",
    "failed(none)": "-- -",
    invalid: "-- -",
    expired: "-- -",
    canceled: "-- -",
  },
  unknown: {
    created: "-- -",
    creation_unknown: "-- -",
    pending: "-A -",
    "pending(none)": "-- -",
    "paid(own)": "-A -",
    "paid(other)": "-A -",
    "mismatch(own)": "W- amount_mismatch",
    "mismatch(other)": "W- amount_mismatch",
    "failed(own)": "-A -",
    "failed(other)": "-A -",
    "failed(none)": "-- -",
    invalid: "-- -",
    expired: "-- -",
    canceled: "-- -",
  },
  paid: {
    created: "-- -",
    creation_unknown: "-- -",
    pending: "-- -",
    "pending(none)": "-- -",
    "paid(own)": "-- -",
    "paid(other)": "W- -",
    "mismatch(own)": "-- -",
    "mismatch(other)": "W- -",
    "failed(own)": "W- contradiction",
    "failed(other)": "-- -",
    "failed(none)": "W- contradiction",
    invalid: "-- -",
    expired: "-- -",
    canceled: "-- -",
  },
  failed: {
    created: "-- -",
    creation_unknown: "-- -",
    pending: "-- -",
    "pending(none)": "-- -",
    "paid(own)": "W- late_success",
    "paid(other)": "-A -",
    "mismatch(own)": "W- late_success",
    "mismatch(other)": "W- late_success",
    "failed(own)": "-- -",
    "failed(other)": "-- -",
    "failed(none)": "-- -",
    invalid: "-- -",
    expired: "-- -",
    canceled: "-- -",
  },
  canceled: {
    created: "-- -",
    creation_unknown: "-- -",
    pending: "-- -",
    "pending(none)": "-- -",
    "paid(own)": "W- late_success",
    "paid(other)": "W- late_success",
    "mismatch(own)": "W- late_success",
    "mismatch(other)": "W- late_success",
    "failed(own)": "-- -",
    "failed(other)": "-- -",
    "failed(none)": "-- -",
    invalid: "-- -",
    expired: "-- -",
    canceled: "-- -",
  },
  expired: {
    created: "-- -",
    creation_unknown: "-- -",
    pending: "-- -",
    "pending(none)": "-- -",
    "paid(own)": "W- late_success",
    "paid(other)": "W- late_success",
    "mismatch(own)": "W- late_success",
    "mismatch(other)": "W- late_success",
    "failed(own)": "-- -",
    "failed(other)": "-- -",
    "failed(none)": "-- -",
    invalid: "-- -",
    expired: "-- -",
    canceled: "-- -",
  },
  "review/amount_mismatch": {
    created: "-- amount_mismatch",
    creation_unknown: "-- amount_mismatch",
    pending: "-- amount_mismatch",
    "pending(none)": "-- amount_mismatch",
    "paid(own)": "-A -",
    "paid(other)": "-A -",
    "mismatch(own)": "W- amount_mismatch",
    "mismatch(other)": "W- amount_mismatch",
    "failed(own)": "-- amount_mismatch",
    "failed(other)": "-- amount_mismatch",
    "failed(none)": "-- amount_mismatch",
    invalid: "-- amount_mismatch",
    expired: "-- amount_mismatch",
    canceled: "-- amount_mismatch",
  },
  "review/contradiction": {
    created: "-- contradiction",
    creation_unknown: "-- contradiction",
    pending: "-- contradiction",
    "pending(none)": "-- contradiction",
    "paid(own)": "W- contradiction",
    "paid(other)": "W- contradiction",
    "mismatch(own)": "-- contradiction",
    "mismatch(other)": "W- contradiction",
    "failed(own)": "-- contradiction",
    "failed(other)": "-- contradiction",
    "failed(none)": "-- contradiction",
    invalid: "-- contradiction",
    expired: "-- contradiction",
    canceled: "-- contradiction",
  },
}

describe("warnings, adopted uuids and review codes: every state × every answer", () => {
  const MORE: Record<string, ServiceAnswer> = {
    ...ANSWERS,
    "pending(none)": { kind: "pending" },
    "failed(none)": { kind: "failed" },
  }
  for (const [row, cells] of Object.entries(EXTRA)) {
    const [state, code] = row.split("/") as [PaymentState, ReviewCode | undefined]
    for (const [name, want] of Object.entries(cells)) {
      it(`${row} + ${name}: ${want}`, () => {
        const d = decide(facts(state, code ?? null), MORE[name], { session_alive: true })
        expect(`${d.warn ? "W" : "-"}${d.adopt_uuid ? "A" : "-"} ${d.review_code ?? "-"}`).toBe(want)
      })
    }
  }
})

describe("a success from the sandbox for a live store (its key is a sandbox key)", () => {
  it("never pays: an open payment goes to review with a warning (an item), its uuid recorded as no money", () => {
    for (const status of ["pending", "awaiting_transfer", "unknown"] as const) {
      expect(decide(facts(status), ANSWERS.sandbox_paid, { session_alive: true })).toMatchObject({
        to: "review",
        review_code: "verify_refused_mode",
        action: "none",
        charge: "none",
        warn: true,
      })
    }
  })

  it("still waits for the genuine payment: once the key is fixed, a verified success pays it", () => {
    const p = { status: "review" as const, review_code: "verify_refused_mode" as const, primary_uuid: null }
    expect(decide(p, ANSWERS["paid(own)"], { session_alive: true })).toMatchObject({ to: "paid", action: "settle", charge: "primary" })
    expect(decide(p, ANSWERS.sandbox_paid, { session_alive: true })).toMatchObject({ to: "review", action: "none", charge: null, warn: false })
  })
})

// Survivor of `npm run mutate` on transitions.ts (2026-11-26).
describe("which amount_mismatch code reopens a payment", () => {
  it("only a payment in review: a code left on a closed payment never lets a success capture", () => {
    for (const status of ["canceled", "expired", "failed"] as const) {
      const p = { status, review_code: "amount_mismatch" as const, primary_uuid: U1 }
      expect(decide(p, ANSWERS["paid(own)"], { session_alive: true })).toMatchObject({
        to: "review",
        review_code: "late_success",
        action: "none",
        charge: "late",
      })
    }
    const paid = { status: "paid" as const, review_code: "amount_mismatch" as const, primary_uuid: U1 }
    expect(decide(paid, ANSWERS["mismatch(own)"], { session_alive: true })).toMatchObject({
      to: "paid",
      action: "none",
      outcome: "rejected",
      warn: false,
    })
  })
})
