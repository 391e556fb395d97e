import type { Dispatcher } from "undici"
import type { z } from "@medusajs/framework/zod"
import { truncate, type OdemeApiError, type OdemeApiErrorInit } from "./errors"

/** A 2xx answer as read off the wire, before its JSON is checked. */
export interface RawResponse {
  status: number
  text: string
  attempts: number
}

/** Builds an error for the endpoint being called; the transport fills in endpoint, path and secrets. */
export type FailFn = (init: Omit<OdemeApiErrorInit, "endpoint" | "method" | "path" | "secrets">) => OdemeApiError

/** Reads at most `limit` bytes; `undefined` when the body is larger (the rest is discarded). Events, not an async iterator: a poller pass reads thousands of small bodies. */
export function readBody(body: Dispatcher.ResponseData["body"], limit: number): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    body.on("data", (chunk: Buffer | Uint8Array) => {
      const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk)
      size += buf.length
      if (size > limit) {
        body.destroy()
        resolve(undefined)
        return
      }
      chunks.push(buf)
    })
    body.once("end", () => resolve(Buffer.concat(chunks, size).toString("utf8")))
    body.once("error", reject)
  })
}

export function parseJsonOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

/** Pulls the service's message out of a JSON error body. */
export function extractServiceMessage(json: unknown): string | undefined {
  if (!json || typeof json !== "object" || Array.isArray(json)) return undefined
  const obj = json as Record<string, unknown>
  for (const key of ["message", "error", "error_message", "msg"]) {
    const v = obj[key]
    if (typeof v === "string" && v.trim()) return v
    if (v && typeof v === "object" && typeof (v as { message?: unknown }).message === "string") {
      return (v as { message: string }).message
    }
  }
  if (Array.isArray(obj.errors) && obj.errors.length) {
    const parts = obj.errors
      .map((e) => (typeof e === "string" ? e : e && typeof e === "object" ? (e as { message?: unknown }).message : undefined))
      .filter((e): e is string => typeof e === "string")
    if (parts.length) return parts.join("; ")
  }
  return undefined
}

/** Checks a 2xx body against the endpoint's schema; a mismatch names the first field that did not fit. */
export function parseResponse<S extends z.ZodType>(raw: RawResponse, schema: S, fail: FailFn): z.output<S> {
  const json = parseJsonOrUndefined(raw.text)
  if (json === undefined) {
    throw fail({
      kind: "invalid_response",
      retryable: false,
      status: raw.status,
      detail: raw.text.trim() === "" ? "empty body" : "body is not JSON",
      attempts: raw.attempts,
    })
  }
  const parsed = schema.safeParse(json)
  if (parsed.success) return parsed.data
  const issue = parsed.error.issues[0]
  throw fail({
    kind: "invalid_response",
    retryable: false,
    status: raw.status,
    field: issue && issue.path.length ? issue.path.join(".") : "(root)",
    detail: issue ? truncate(issue.message, 200) : "schema mismatch",
    serviceMessage: extractServiceMessage(json),
    attempts: raw.attempts,
  })
}
