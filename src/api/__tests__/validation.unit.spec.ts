import { validateAndTransformBody, validateAndTransformQuery, type MedusaRequest } from "@medusajs/framework/http"
import {
  AdminGetOdemeAttentionParams,
  AdminGetOdemeNotificationsParams,
  AdminGetOdemeTransfersParams,
  AdminOdemeChargeParams,
  AdminOdemeOrderParams,
} from "../admin/odeme/validators"
import { OdemeReturnParams, OdemeReturnQuery } from "../odeme/validators"
import { StoreCreateOdemeCheckoutForm, StoreGetOdemePaymentSessionParams } from "../store/odeme/validators"
import { ownershipProof } from "../utils/owned-session"
import { knownQueryOnly } from "../utils/known-query"
import { validatedParams } from "../utils/path-params"

/** Runs middlewares the way Express does, and gives back the request or the error passed to `next`. */
async function run(req: Record<string, unknown>, ...middlewares: Array<(req: any, res: any, next: (e?: unknown) => void) => unknown>) {
  const r = { allowed: [], query: {}, params: {}, ...req }
  for (const mw of middlewares) {
    const error = await new Promise<unknown>((resolve) => void mw(r, {}, resolve))
    if (error) return { error: error as { type: string; message: string } }
  }
  return { req: r as Record<string, any> }
}
const query = (schema: Parameters<typeof validateAndTransformQuery>[0], q: Record<string, unknown>) =>
  run({ query: q }, validateAndTransformQuery(schema, {}))
const publicQuery = (schema: typeof OdemeReturnQuery | typeof StoreGetOdemePaymentSessionParams, q: Record<string, unknown>) =>
  run({ query: q }, knownQueryOnly(schema), validateAndTransformQuery(schema, {}))
const params = (schema: Parameters<typeof validatedParams>[1], p: Record<string, string>) =>
  validatedParams({ params: p } as unknown as MedusaRequest, schema).then(
    (value): { value?: unknown; error?: { type: string; message: string } } => ({ value }),
    (error) => ({ error: error as { type: string; message: string } })
  )

describe("admin queries (validateAndTransformQuery)", () => {
  it("pages default when absent or empty and come out as numbers", async () => {
    expect((await query(AdminGetOdemeTransfersParams, {})).req?.validatedQuery).toEqual({ limit: 20, offset: 0 })
    expect((await query(AdminGetOdemeTransfersParams, { limit: "", offset: "5" })).req?.validatedQuery).toEqual({ limit: 20, offset: 5 })
    expect((await query(AdminGetOdemeAttentionParams, {})).req?.validatedQuery).toEqual({ limit: 50, offset: 0 })
    expect((await query(AdminGetOdemeAttentionParams, { limit: "200" })).req?.validatedQuery).toEqual({ limit: 200, offset: 0 })
  })

  it.each([
    [{ limit: "abc" }, /field 'limit'/],
    [{ limit: "1000" }, /field 'limit' too big, expected at most: '100'/],
    [{ limit: "0" }, /field 'limit' too small/],
    [{ offset: "1.5" }, /'int' for field 'offset'/],
    [{ other: "1" }, /Unrecognized fields: 'other'/],
  ])("a transfers page %j is a 400 naming the field", async (q, message) => {
    const { error } = await query(AdminGetOdemeTransfersParams, q)
    expect(error).toEqual(expect.objectContaining({ type: "invalid_data", message: expect.stringMatching(message) }))
  })

  it("notifications: dead by default, a state of the inbox, a well-formed session id", async () => {
    expect((await query(AdminGetOdemeNotificationsParams, {})).req?.validatedQuery).toEqual({ limit: 20, offset: 0, state: "dead" })
    expect((await query(AdminGetOdemeNotificationsParams, { state: "retry", session_id: "payses_1" })).req?.validatedQuery).toEqual(
      expect.objectContaining({ state: "retry", session_id: "payses_1" })
    )
    expect((await query(AdminGetOdemeNotificationsParams, { state: "lost" })).error?.message).toMatch(
      /Expected: 'received, processing, retry, done, dead' for field 'state'/
    )
    expect((await query(AdminGetOdemeNotificationsParams, { session_id: "a;b" })).error?.message).toMatch(/session_id may only contain/)
  })
})

describe("path parameters (validatedParams)", () => {
  it("gives the parameters, or a 400 with the schema's message", async () => {
    expect(await params(AdminOdemeOrderParams, { order_id: "order_01ABC" })).toEqual({ value: { order_id: "order_01ABC" } })
    expect((await params(AdminOdemeOrderParams, { order_id: "order'; drop" })).error).toEqual(
      expect.objectContaining({ type: "invalid_data", message: expect.stringMatching(/order_id may only contain/) })
    )
    expect((await params(AdminOdemeChargeParams, { id: "odntf_0123456789" })).error?.message).toMatch(/charge id \(odchg_/)
    expect(await params(AdminOdemeChargeParams, { id: "odchg_0123456789" })).toEqual({ value: { id: "odchg_0123456789" } })
  })

  it("the return address: a session id and success or cancel", async () => {
    expect(await params(OdemeReturnParams, { session_id: "payses_0123456789", outcome: "cancel" })).toEqual({
      value: { session_id: "payses_0123456789", outcome: "cancel" },
    })
    expect((await params(OdemeReturnParams, { session_id: "payses_0123456789", outcome: "maybe" })).error?.type).toBe("invalid_data")
    expect((await params(OdemeReturnParams, { session_id: "not-a-session", outcome: "success" })).error?.message).toMatch(/Invalid return address/)
  })
})

describe("public queries (knownQueryOnly, then validateAndTransformQuery)", () => {
  it("the return route keeps the redirect's parameters as they arrived and ignores the others", async () => {
    const { req } = await publicQuery(OdemeReturnQuery, { status: "success", uuid: "u", hash: "h", return_url: "https://evil.example", "a.b.c": "x" })
    expect(req?.validatedQuery).toEqual({ status: "success", uuid: "u", hash: "h" })
  })

  it.each([
    [{ status: ["a", "b"] }, /'string' for field 'status'/],
    [{ message: "a\u0000b" }, /NUL characters are not allowed/],
    [{ hash: "h".repeat(1025) }, /field 'hash' too big/],
  ])("the return route refuses %j with a 400", async (q, message) => {
    expect((await publicQuery(OdemeReturnQuery, q)).error).toEqual(
      expect.objectContaining({ type: "invalid_data", message: expect.stringMatching(message) })
    )
  })

  it("the status route takes a cart id or a collection with its order (strings) and ignores anything else", async () => {
    expect((await publicQuery(StoreGetOdemePaymentSessionParams, { cart_id: "cart_1", fields: "*" })).req?.validatedQuery).toEqual({
      cart_id: "cart_1",
    })
    expect(
      (await publicQuery(StoreGetOdemePaymentSessionParams, { payment_collection_id: "pay_col_1", order_id: "order_1" })).req?.validatedQuery
    ).toEqual({
      payment_collection_id: "pay_col_1",
      order_id: "order_1",
    })
    expect((await publicQuery(StoreGetOdemePaymentSessionParams, { order_id: ["a", "b"] })).error?.type).toBe("invalid_data")
    expect((await publicQuery(StoreGetOdemePaymentSessionParams, { cart_id: { a: "x" } })).error?.type).toBe("invalid_data")
  })
})

describe("store body (validateAndTransformBody)", () => {
  it("the form route takes { cart_id } or { payment_collection_id, order_id } and nothing else", async () => {
    const body = (b: unknown) => run({ body: b }, validateAndTransformBody(StoreCreateOdemeCheckoutForm))
    expect((await body({ cart_id: "cart_1" })).req?.validatedBody).toEqual({ cart_id: "cart_1" })
    expect((await body({ payment_collection_id: "pay_col_1", order_id: "order_1" })).req?.validatedBody).toEqual({
      payment_collection_id: "pay_col_1",
      order_id: "order_1",
    })
    expect((await body({ cart_id: "" })).error?.type).toBe("invalid_data")
    expect((await body({ cart_id: "cart_1", amount: 1 })).error?.message).toMatch(/Unrecognized fields: 'amount'/)
  })
})

describe("ownershipProof", () => {
  it("is a cart, or a collection with its order, never both nor half", () => {
    expect(ownershipProof({ cart_id: "cart_1" })).toEqual({ cartId: "cart_1" })
    expect(ownershipProof({ payment_collection_id: "pay_col_1", order_id: "order_1" })).toEqual({ collectionId: "pay_col_1", orderId: "order_1" })
    for (const q of [{}, { payment_collection_id: "pay_col_1" }, { order_id: "order_1" }, { cart_id: "cart_1", order_id: "order_1" }]) {
      expect(() => ownershipProof(q)).toThrow(/cart_id is required \(a checkout\), or payment_collection_id with order_id/)
    }
  })
})
