/**
 * Compares the *shape* of a JSON answer (field names and JSON types) with an
 * expected shape. Values are never compared here: uuids, timestamps and
 * amounts differ on every run. Key values (e.g. `sale_status`) are checked by
 * the scenarios themselves.
 */

export type JsonType = "string" | "number" | "boolean" | "null" | "object" | "array"

export type Shape =
  | { kind: "string" }
  | { kind: "number" }
  | { kind: "boolean" }
  | { kind: "null" }
  /** Anything: not compared. */
  | { kind: "any" }
  | {
      kind: "object"
      fields: Record<string, Shape>
      /** Fields that may be absent without being reported as missing. */
      optional?: readonly string[]
    }
  | { kind: "array"; items: Shape }

/** Small builders so expectations read like the JSON they describe. */
export const S = {
  string: { kind: "string" } as Shape,
  number: { kind: "number" } as Shape,
  boolean: { kind: "boolean" } as Shape,
  null: { kind: "null" } as Shape,
  any: { kind: "any" } as Shape,
  object(fields: Record<string, Shape>, optional: readonly string[] = []): Shape {
    return { kind: "object", fields, optional }
  },
  array(items: Shape): Shape {
    return { kind: "array", items }
  },
}

export interface TypeDifference {
  /** e.g. `result.br_price`, `result[].id`; `(root)` for the whole body. */
  path: string
  expected: string
  actual: string
}

export interface ShapeDiff {
  /** Fields the expectation has and the answer lacks. */
  missing: string[]
  /** Fields present in both, with another JSON type. */
  other_type: TypeDifference[]
  /** Fields the answer has and the expectation does not know. */
  extra: string[]
}

export function jsonType(value: unknown): JsonType | "undefined" {
  if (value === null) return "null"
  if (Array.isArray(value)) return "array"
  switch (typeof value) {
    case "string":
      return "string"
    case "number":
    case "bigint":
      return "number"
    case "boolean":
      return "boolean"
    case "object":
      return "object"
    default:
      return "undefined"
  }
}

function join(path: string, key: string): string {
  return path ? `${path}.${key}` : key
}

function shapeName(shape: Shape): string {
  return shape.kind === "any" ? "any" : shape.kind
}

function walk(expected: Shape, actual: unknown, path: string, out: ShapeDiff): void {
  if (expected.kind === "any") return
  const type = jsonType(actual)
  if (expected.kind === "object") {
    if (type !== "object") {
      out.other_type.push({ path: path || "(root)", expected: "object", actual: type })
      return
    }
    const obj = actual as Record<string, unknown>
    const optional = new Set(expected.optional ?? [])
    for (const [key, fieldShape] of Object.entries(expected.fields)) {
      const p = join(path, key)
      if (!Object.prototype.hasOwnProperty.call(obj, key) || obj[key] === undefined) {
        if (!optional.has(key)) out.missing.push(p)
        continue
      }
      walk(fieldShape, obj[key], p, out)
    }
    for (const key of Object.keys(obj)) {
      if (!Object.prototype.hasOwnProperty.call(expected.fields, key)) out.extra.push(join(path, key))
    }
    return
  }
  if (expected.kind === "array") {
    if (type !== "array") {
      out.other_type.push({ path: path || "(root)", expected: "array", actual: type })
      return
    }
    for (const item of actual as unknown[]) walk(expected.items, item, `${path}[]`, out)
    return
  }
  if (type !== expected.kind) out.other_type.push({ path: path || "(root)", expected: shapeName(expected), actual: type })
}

/**
 * Differences between an expected shape and an actual JSON value. Array
 * elements are all checked against the item shape and reported once per
 * path (`result[].id`); when elements disagree the actual types are joined
 * (`number|string`).
 */
export function diffShape(expected: Shape, actual: unknown): ShapeDiff {
  const raw: ShapeDiff = { missing: [], other_type: [], extra: [] }
  walk(expected, actual, "", raw)
  const types = new Map<string, TypeDifference>()
  for (const d of raw.other_type) {
    const seen = types.get(d.path)
    if (!seen) types.set(d.path, { ...d })
    else if (!seen.actual.split("|").includes(d.actual)) {
      seen.actual = [...seen.actual.split("|"), d.actual].sort().join("|")
    }
  }
  return {
    missing: [...new Set(raw.missing)],
    other_type: [...types.values()],
    extra: [...new Set(raw.extra)],
  }
}

export function isEmptyDiff(d: ShapeDiff): boolean {
  return d.missing.length === 0 && d.other_type.length === 0 && d.extra.length === 0
}

/** A shape description without values, e.g. `{ result: [{ id: "number" }] }`, safe to put in a report. */
export type ObservedShape = string | ObservedShape[] | { [key: string]: ObservedShape }

function mergeObserved(a: ObservedShape, b: ObservedShape): ObservedShape {
  if (typeof a === "string" && typeof b === "string") {
    return [...new Set([...a.split("|"), ...b.split("|")])].sort().join("|")
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length === 0) return b
    if (b.length === 0) return a
    return [mergeObserved(a[0], b[0])]
  }
  if (a && b && typeof a === "object" && typeof b === "object" && !Array.isArray(a) && !Array.isArray(b)) {
    const out: { [key: string]: ObservedShape } = { ...a }
    for (const [k, v] of Object.entries(b)) out[k] = k in out ? mergeObserved(out[k], v) : v
    return out
  }
  const name = (s: ObservedShape) => (typeof s === "string" ? s : Array.isArray(s) ? "array" : "object")
  return mergeObserved(name(a), name(b))
}

/** Describes the JSON types of a value, merging array elements into one item description. */
export function observedShape(value: unknown): ObservedShape {
  const type = jsonType(value)
  if (type === "array") {
    const items = (value as unknown[]).map(observedShape)
    if (items.length === 0) return []
    return [items.reduce(mergeObserved)]
  }
  if (type === "object") {
    const out: { [key: string]: ObservedShape } = {}
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) out[k] = observedShape(v)
    return out
  }
  return type
}
