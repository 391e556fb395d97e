import { diffShape, isEmptyDiff, observedShape, S } from "../shape-diff"
import { TRANSFER_RECORD } from "../expectations"

describe("diffShape", () => {
  const shape = S.object({ id: S.number, name: S.string, ok: S.boolean })

  it("finds nothing when the shape matches, whatever the values", () => {
    expect(diffShape(shape, { id: 1, name: "a", ok: false })).toEqual({ missing: [], other_type: [], extra: [] })
    expect(isEmptyDiff(diffShape(shape, { id: 999, name: "", ok: true }))).toBe(true)
  })

  it("reports a missing field", () => {
    expect(diffShape(shape, { id: 1, ok: true })).toEqual({ missing: ["name"], other_type: [], extra: [] })
  })

  it("treats an undefined value as missing and null as another type", () => {
    const d = diffShape(shape, { id: 1, name: undefined, ok: null })
    expect(d.missing).toEqual(["name"])
    expect(d.other_type).toEqual([{ path: "ok", expected: "boolean", actual: "null" }])
  })

  it("reports a field with another type", () => {
    expect(diffShape(shape, { id: "1", name: "a", ok: 1 })).toEqual({
      missing: [],
      other_type: [
        { path: "id", expected: "number", actual: "string" },
        { path: "ok", expected: "boolean", actual: "number" },
      ],
      extra: [],
    })
  })

  it("reports an extra field", () => {
    expect(diffShape(shape, { id: 1, name: "a", ok: true, currency: "TRY" })).toEqual({
      missing: [],
      other_type: [],
      extra: ["currency"],
    })
  })

  it("walks nested objects and arrays, once per path", () => {
    const list = S.object({ result: S.array(S.object({ id: S.number, name: S.string })) })
    const d = diffShape(list, {
      result: [
        { id: 1, name: "a" },
        { id: "2", name: "b", extra: 1 },
        { id: 3, extra: 2 },
        { id: true, name: "c" },
      ],
    })
    expect(d.missing).toEqual(["result[].name"])
    expect(d.extra).toEqual(["result[].extra"])
    expect(d.other_type).toEqual([{ path: "result[].id", expected: "number", actual: "boolean|string" }])
  })

  it("reports a wrong container type at its path and at the root", () => {
    const list = S.object({ result: S.array(S.any) })
    expect(diffShape(list, { result: null }).other_type).toEqual([{ path: "result", expected: "array", actual: "null" }])
    expect(diffShape(list, [1]).other_type).toEqual([{ path: "(root)", expected: "object", actual: "array" }])
    expect(diffShape(list, "oops").other_type).toEqual([{ path: "(root)", expected: "object", actual: "string" }])
  })

  it("does not report optional fields that are absent, and never compares `any`", () => {
    const s = S.object({ a: S.string, b: S.number, c: S.any }, ["b"])
    expect(isEmptyDiff(diffShape(s, { a: "x", c: [1, { z: 2 }] }))).toBe(true)
    expect(diffShape(s, { a: "x", b: "1", c: null }).other_type).toEqual([{ path: "b", expected: "number", actual: "string" }])
  })

  it("checks the §2.5 record the way a drifting sandbox would be caught", () => {
    const d = diffShape(TRANSFER_RECORD, {
      result: {
        br_tracking_no: 123456,
        br_name: "X",
        br_price: "150.00",
        br_currency: "TRY",
        br_bank_name: "B",
        br_iban: "TR00",
        sale_status: "0",
        br_note: null,
      },
    })
    expect(d.missing).toEqual(["result.sale_date"])
    expect(d.extra).toEqual(["result.br_note"])
    expect(d.other_type.map((t) => `${t.path}:${t.actual}`)).toEqual([
      "result.br_tracking_no:number",
      "result.br_price:string",
      "result.sale_status:string",
    ])
  })
})

describe("observedShape", () => {
  it("describes types without values and merges array items", () => {
    expect(
      observedShape({
        result: [
          { id: 1, name: "a" },
          { id: "2", extra: null },
        ],
        n: null,
        e: [],
      })
    ).toEqual({
      result: [{ id: "number|string", name: "string", extra: "null" }],
      n: "null",
      e: [],
    })
  })
})
