import type { IncomingMessage, ServerResponse } from "node:http"
import { z } from "zod"
import type { EmulatorContext } from "./context"
import { errorPage } from "./pages"
import { clientIp, HttpError, parseBody, readBody, sendHtml, sendJson, type ParsedBody } from "./http-util"
import type { Access } from "./types"

export interface RouteContext {
  req: IncomingMessage
  res: ServerResponse
  ctx: EmulatorContext
  params: Record<string, string>
  query: URLSearchParams
  body: ParsedBody
  ip: string
  /** Set for authenticated `/api` routes. */
  access?: Access
}

export interface Route {
  method: "GET" | "POST" | "DELETE" | Array<"GET" | "POST" | "DELETE">
  pattern: RegExp
  /** Fault-injection name (see faults.ts); undefined: faults never apply. */
  endpoint?: string
  auth?: boolean
  /** Errors are rendered as HTML pages instead of JSON. */
  html?: boolean
  handler: (rc: RouteContext) => void | Promise<void>
}

export function fail(rc: RouteContext, status: number, message: string, extra: Record<string, unknown> = {}): void {
  sendJson(rc.res, status, { success: false, message, ...extra })
}

/** The service's wording of a bad body: the first issue, a field that is absent told apart from a wrong one. */
function describeZodIssue(issue: z.core.$ZodIssue, body: unknown): string {
  const field = issue.path.length ? issue.path.join(".") : "body"
  if (issue.code === "invalid_type" && valueAt(body, issue.path) === undefined) return `Missing required field "${field}"`
  return `Invalid field "${field}": ${issue.message}`
}

/** zod 4's issues do not say what was received: the value is looked up in the body. */
function valueAt(body: unknown, path: ReadonlyArray<PropertyKey>): unknown {
  let v = body
  for (const key of path) {
    if (v === null || typeof v !== "object" || !Object.prototype.hasOwnProperty.call(v, key)) return undefined
    v = (v as Record<PropertyKey, unknown>)[key]
  }
  return v
}

/** Validates a JSON (or form) body with zod; a failure is a 400 naming the field. */
export function parseWith<T extends z.ZodType>(rc: RouteContext, schema: T): z.output<T> {
  const b = rc.body
  if (b.kind === "invalid") throw new HttpError(400, b.error)
  if (b.kind === "text") throw new HttpError(400, "Request body must be JSON (Content-Type: application/json)")
  const value = b.kind === "none" ? {} : b.value
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new HttpError(400, "Request body must be a JSON object")
  const r = schema.safeParse(value)
  if (!r.success) throw new HttpError(400, describeZodIssue(r.error.issues[0], value))
  return r.data
}

/** The fields of a browser form (or of a JSON object posted instead); HTML errors otherwise. */
export function formFields(rc: RouteContext): Record<string, string> {
  const b = rc.body
  if (b.kind === "form") return b.value
  if (b.kind === "json" && b.value && typeof b.value === "object" && !Array.isArray(b.value)) {
    const out: Record<string, string> = {}
    for (const [k, v] of Object.entries(b.value)) if (v !== null && v !== undefined) out[k] = String(v)
    return out
  }
  if (b.kind === "none") return {}
  throw new HttpError(400, "Quick Checkout expects a form POST (application/x-www-form-urlencoded)", true)
}

const REDACT = /api[-_]?key|secret|password/i

function redact(value: unknown): unknown {
  if (!value || typeof value !== "object") return value
  if (Array.isArray(value)) return value.map(redact)
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(value)) out[k] = REDACT.test(k) ? "[redacted]" : redact(v)
  return out
}

export function createRouter(ctx: EmulatorContext, routes: Route[]) {
  return async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://emulator.local")
    const path = url.pathname.replace(/\/+$/, "") || "/"
    const method = (req.method ?? "GET").toUpperCase()
    const isControl = path.startsWith("/_control")
    const wantsHtml = path.startsWith("/checkout")
    let rc: RouteContext | undefined
    try {
      const raw = method === "GET" || method === "HEAD" ? "" : await readBody(req)
      const body = parseBody(raw, req.headers["content-type"])
      const apiKeyHeader = req.headers["api-key"]
      if (!isControl) {
        const rec = ctx.state.recordRequest({
          time: new Date().toISOString(),
          method,
          path,
          query: Object.fromEntries(url.searchParams),
          body: body.kind === "json" || body.kind === "form" ? redact(body.value) : body.kind === "none" ? null : "[unparsed]",
          has_api_key: typeof apiKeyHeader === "string" && apiKeyHeader.length > 0,
        })
        res.on("finish", () => (rec.status = res.statusCode))
      }

      let matched: { route: Route; params: Record<string, string> } | undefined
      let pathMatched = false
      for (const route of routes) {
        const m = route.pattern.exec(path)
        if (!m) continue
        pathMatched = true
        const methods = Array.isArray(route.method) ? route.method : [route.method]
        if (!methods.includes(method as "GET") && !(method === "HEAD" && methods.includes("GET"))) continue
        const params: Record<string, string> = {}
        for (const [k, v] of Object.entries(m.groups ?? {})) {
          try {
            params[k] = decodeURIComponent(v)
          } catch {
            throw new HttpError(400, `Malformed path parameter "${k}"`)
          }
        }
        matched = { route, params }
        break
      }
      if (!matched) {
        const status = pathMatched ? 405 : 404
        const msg = pathMatched ? `Method ${method} is not allowed on ${path}` : `Not found: ${method} ${path}`
        if (wantsHtml) sendHtml(res, status, errorPage(status, msg))
        else sendJson(res, status, { success: false, message: msg })
        return
      }
      const { route, params } = matched
      rc = { req, res, ctx, params, query: url.searchParams, body, ip: clientIp(req) }

      if (route.endpoint) {
        const fault = ctx.faults.take(route.endpoint)
        if (fault) {
          ctx.log(`fault ${fault.mode} on ${route.endpoint} (${method} ${path})`)
          if (fault.mode === "error500") {
            const msg = "Internal server error (injected fault)"
            if (route.html) sendHtml(res, 500, errorPage(500, msg))
            else sendJson(res, 500, { success: false, message: msg })
            return
          }
          if (fault.mode === "refuse400") {
            sendJson(res, 400, { success: false, message: "Request refused (injected fault)" })
            return
          }
          if (fault.mode === "hang") {
            ctx.faults.hold(res)
            return
          }
          if (fault.mode === "commit_then_502") {
            await runThenFail(rc, route)
            return
          }
          await ctx.faults.sleep(fault.delayMs)
          if (res.destroyed) return
        }
      }

      if (route.auth) {
        const key = typeof apiKeyHeader === "string" ? apiKeyHeader : ""
        if (!key) return fail(rc, 401, "Missing api-key header")
        const access = ctx.state.accessByKey(key)
        if (!access) return fail(rc, 401, "Invalid API key")
        if (access.apiIp !== "0.0.0.0" && access.apiIp !== rc.ip) {
          return fail(rc, 403, `API access ${access.apiId} is restricted to IP ${access.apiIp}; request came from ${rc.ip}`)
        }
        rc.access = access
      }
      await route.handler(rc)
    } catch (err) {
      const status = err instanceof HttpError ? err.status : 500
      const message = err instanceof HttpError ? err.message : "Internal emulator error"
      if (!(err instanceof HttpError)) ctx.log(`error on ${method} ${path}: ${(err as Error)?.stack ?? String(err)}`)
      if (wantsHtml || (err instanceof HttpError && err.html)) sendHtml(res, status, errorPage(status, message))
      else sendJson(res, status, { success: false, message })
    }
  }
}

/** Carries the request out with its answer thrown away, then answers as a failing gateway would. */
async function runThenFail(rc: RouteContext, route: Route): Promise<void> {
  const real = rc.res
  const sink = Object.create(real, {
    writeHead: { value: () => sink },
    setHeader: { value: () => sink },
    write: { value: () => true },
    end: { value: () => sink },
  }) as ServerResponse
  if (route.auth) {
    const key = typeof rc.req.headers["api-key"] === "string" ? (rc.req.headers["api-key"] as string) : ""
    const access = rc.ctx.state.accessByKey(key)
    if (!access) return fail(rc, 401, "Invalid API key")
    rc.access = access
  }
  try {
    await route.handler({ ...rc, res: sink })
  } catch {
    // The gateway error is the answer either way.
  }
  sendHtml(real, 502, errorPage(502, "Bad gateway (injected fault after the request was carried out)"))
}
