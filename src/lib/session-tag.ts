import { createHmac, timingSafeEqual } from "node:crypto"

/**
 * A session's data is partly the storefront's words: Medusa hands the
 * storefront's own `data` back to a provider when a session's creation fails
 * (`deleteSession({ data: input.data })`), so a `session_id` there can name
 * someone else's payment. The plugin writes a tag beside the session id it
 * was given by Medusa; only data that carries the right tag may cancel that
 * session. Keyed with the API key, which never leaves the server, so the tag
 * cannot be made for another session.
 */
export function sessionTag(apiKey: string, sessionId: string): string {
  return createHmac("sha256", `odeme-session-tag:${apiKey}`).update(sessionId).digest("base64url")
}

/** The session id of data the plugin itself wrote, or null when the data's tag does not prove it. */
export function taggedSessionId(apiKey: string, data: Record<string, unknown> | undefined): string | null {
  const id = data?.session_id
  const tag = data?.session_tag
  if (typeof id !== "string" || !id || typeof tag !== "string") return null
  const want = Buffer.from(sessionTag(apiKey, id))
  const got = Buffer.from(tag)
  return want.length === got.length && timingSafeEqual(want, got) ? id : null
}

/**
 * The proof a return address carries (the last segment of the `success_url` /
 * `cancel_url` the plugin signs into a session's form). Only the customer's
 * browser and the service see those addresses; anyone else who knows a session
 * id can open `/odeme/return/<id>/success` too, and must learn nothing there.
 */
export function returnProof(apiKey: string, sessionId: string): string {
  return createHmac("sha256", `odeme-return:${apiKey}`).update(sessionId).digest("base64url").slice(0, 22)
}

/** Whether `proof` is the session's return proof. */
export function isReturnProof(apiKey: string, sessionId: string, proof: string | undefined): boolean {
  if (!proof) return false
  const want = Buffer.from(returnProof(apiKey, sessionId))
  const got = Buffer.from(proof)
  return want.length === got.length && timingSafeEqual(want, got)
}

/**
 * Data of a session written before the plugin tagged its sessions (a store
 * upgraded with such sessions open): its session id is believed only when the
 * data handed over is exactly what Medusa stored for that session, which only
 * Medusa's own calls (deleting the session) hand over. Null otherwise.
 */
export function untaggedSessionId(data: Record<string, unknown> | undefined, stored: unknown): string | null {
  const id = data?.session_id
  if (typeof id !== "string" || !id || data === undefined || "session_tag" in data) return null
  if (!stored || typeof stored !== "object" || (stored as Record<string, unknown>).session_id !== id) return null
  return canonical(stored) === canonical(data) ? id : null
}

/** JSON with sorted keys, so two copies of the same data compare equal whatever their key order. */
function canonical(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "undefined"
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`
  const record = value as Record<string, unknown>
  return `{${Object.keys(record)
    .filter((k) => record[k] !== undefined)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${canonical(record[k])}`)
    .join(",")}}`
}
