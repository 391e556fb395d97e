import type { IncomingMessage, ServerResponse } from "node:http"

export const MAX_BODY_BYTES = 1024 * 1024

export class HttpError extends Error {
  constructor(
    public status: number,
    message: string,
    public html = false
  ) {
    super(message)
  }
}

export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    req.on("data", (c: Buffer) => {
      size += c.length
      if (size > MAX_BODY_BYTES) {
        reject(new HttpError(413, "Request body too large"))
        req.destroy()
        return
      }
      chunks.push(c)
    })
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")))
    req.on("error", reject)
  })
}

export type ParsedBody =
  | { kind: "none" }
  | { kind: "json"; value: unknown }
  | { kind: "form"; value: Record<string, string> }
  | { kind: "invalid"; error: string }
  | { kind: "text"; value: string }

export function parseBody(raw: string, contentType: string | undefined): ParsedBody {
  if (!raw) return { kind: "none" }
  const ct = (contentType ?? "").toLowerCase()
  if (ct.includes("application/x-www-form-urlencoded")) {
    const out: Record<string, string> = {}
    for (const [k, v] of new URLSearchParams(raw)) out[k] = v
    return { kind: "form", value: out }
  }
  if (ct.includes("json") || ct === "" || raw.trimStart().startsWith("{") || raw.trimStart().startsWith("[")) {
    try {
      return { kind: "json", value: JSON.parse(raw) }
    } catch {
      return { kind: "invalid", error: "Request body is not valid JSON" }
    }
  }
  return { kind: "text", value: raw }
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  if (res.headersSent || res.destroyed) return
  const text = JSON.stringify(body)
  res.writeHead(status, {
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(text),
    "cache-control": "no-store",
  })
  res.end(text)
}

export function sendHtml(res: ServerResponse, status: number, html: string): void {
  if (res.headersSent || res.destroyed) return
  res.writeHead(status, {
    "content-type": "text/html; charset=utf-8",
    "content-length": Buffer.byteLength(html),
    "cache-control": "no-store",
  })
  res.end(html)
}

export function redirect(res: ServerResponse, location: string, status = 303): void {
  if (res.headersSent || res.destroyed) return
  res.writeHead(status, { location, "content-length": 0, "cache-control": "no-store" })
  res.end()
}

export function clientIp(req: IncomingMessage): string {
  const addr = req.socket.remoteAddress ?? ""
  return addr.startsWith("::ffff:") ? addr.slice(7) : addr === "::1" ? "127.0.0.1" : addr
}

export function escapeHtml(s: unknown): string {
  return String(s ?? "")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;")
}

/** Appends query parameters to a URL, keeping its existing query and fragment. */
export function withQuery(base: string, params: Record<string, string | undefined>): string {
  const u = new URL(base)
  for (const [k, v] of Object.entries(params)) if (v !== undefined) u.searchParams.set(k, v)
  return u.toString()
}
