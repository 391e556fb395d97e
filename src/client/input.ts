/** Argument checks shared by the endpoint methods: a bad input fails before anything is sent. */

export function requirePathSegment(value: unknown, what: string): string {
  return requireString(value, what).trim()
}

export function requireString(value: unknown, what: string): string {
  if (typeof value === "number" && Number.isFinite(value)) return String(value)
  if (typeof value !== "string" || value.trim() === "") throw new TypeError(`${what} is required`)
  return value
}
