/**
 * Project issue 7: property-based fuzzing of every public route of the plugin
 * (webhook, browser return, store routes), the open-redirect guarantee of the
 * return route, and "the API key never leaves the server" checked over every
 * response, every log line written while this file runs, and every payment
 * session's data.
 *
 * Reproducible: the fast-check seed is fixed (FUZZ_SEED overrides it) and
 * printed at the start. Sizes are chosen so the file runs in well under two
 * minutes (about 1,100 generated requests in total).
 */
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import { logger as medusaLogger } from "@medusajs/framework/logger"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import fc from "fast-check"
import { follow, openCheckout, payByCard, waitFor } from "../utils/checkout-driver"
import { useOdemeEnvironment } from "../utils/environment"
import { ordersOfCart } from "../utils/inspect"
import {
  CHECKOUT_PROVIDER,
  TRANSFER_PROVIDER,
  cartWithSession,
  completeCart,
  seedStore,
  type SeededStore,
} from "../utils/store"

/** The key the plugin and the emulator are configured with in this file. */
const API_KEY = "sk_sandbox_DO_NOT_LEAK_7f3a"
/** The repository's default sandbox key: must not appear either (it would mean a default leaked in). */
const DEFAULT_SANDBOX_KEY = "sandbox_test_key_0001"
const SECRETS = [API_KEY, DEFAULT_SANDBOX_KEY]
const STOREFRONT = "http://localhost:8000"

const SEED = Number(process.env.FUZZ_SEED ?? 7_2026_1122)
const RUNS = {
  webhookJunk: 260,
  webhookValidLooking: 240,
  returnRoute: 320,
  storeRoutes: 300,
}

// ---------------------------------------------------------------------------
// Log capture: from the very start of the file (Medusa's boot included).
// Both the logger object Medusa registers (every level, before level
// filtering) and the raw process streams / console are recorded.
// ---------------------------------------------------------------------------
const logLines: string[] = []
const restoreLogCapture: Array<() => void> = []
function stringifyArgs(args: unknown[]): string {
  return args
    .map((a) => {
      if (typeof a === "string") return a
      if (a instanceof Error) return `${a.name}: ${a.message}\n${a.stack ?? ""}`
      try {
        return JSON.stringify(a)
      } catch {
        return Object.prototype.toString.call(a)
      }
    })
    .join(" ")
}
function captureLogs() {
  const target = medusaLogger as unknown as Record<string, unknown>
  for (const level of ["panic", "activity", "progress", "error", "failure", "success", "silly", "debug", "verbose", "http", "info", "warn", "log"]) {
    const original = target[level]
    if (typeof original !== "function") continue
    target[level] = function (this: unknown, ...args: unknown[]) {
      logLines.push(`[logger.${level}] ${stringifyArgs(args)}`)
      return (original as (...a: unknown[]) => unknown).apply(medusaLogger, args)
    }
    restoreLogCapture.push(() => {
      target[level] = original
    })
  }
  for (const stream of [process.stdout, process.stderr]) {
    const original = stream.write
    stream.write = function (this: NodeJS.WriteStream, chunk: unknown, ...rest: unknown[]) {
      logLines.push(`[${stream === process.stdout ? "stdout" : "stderr"}] ${Buffer.isBuffer(chunk) ? chunk.toString("utf8") : String(chunk)}`)
      return (original as (...a: unknown[]) => boolean).call(stream, chunk, ...rest)
    } as typeof stream.write
    restoreLogCapture.push(() => {
      stream.write = original
    })
  }
  const con = console as unknown as Record<string, unknown>
  for (const level of ["log", "info", "warn", "error", "debug", "trace"]) {
    const original = con[level]
    con[level] = (...args: unknown[]) => {
      logLines.push(`[console.${level}] ${stringifyArgs(args)}`)
      return (original as (...a: unknown[]) => unknown).apply(console, args)
    }
    restoreLogCapture.push(() => {
      con[level] = original
    })
  }
}
beforeAll(() => {
  captureLogs()
  process.stdout.write(`\n[fuzz] fast-check seed ${SEED} (set FUZZ_SEED to change it)\n`)
})
afterAll(() => {
  for (const restore of restoreLogCapture.splice(0).reverse()) restore()
})

const env = useOdemeEnvironment({
  env: { ODEME_STOREFRONT_URL: STOREFRONT, ODEME_API_KEY: API_KEY },
  // Flags win over earlier ones: the emulator process runs with the same distinctive key.
  emulatorArgs: ["--api-key", API_KEY],
})

// ---------------------------------------------------------------------------
// HTTP with every answer recorded (status, all headers, body).
// ---------------------------------------------------------------------------
interface Answer {
  method: string
  url: string
  status: number
  location: string | null
  headers: string
  body: string
}
const answers: Answer[] = []
let generatedRequests = 0
/** 5xx answers caused by Express failing to percent-decode a path parameter (Medusa-wide, see below). */
const frameworkDecodeErrors: string[] = []

async function send(method: string, pathAndQuery: string, init: { headers?: Record<string, string>; body?: string } = {}): Promise<Answer> {
  const url = env.backendUrl + pathAndQuery
  const res = await fetch(url, { method, headers: init.headers, body: init.body, redirect: "manual" })
  const body = await res.text()
  const answer: Answer = {
    method,
    url,
    status: res.status,
    location: res.headers.get("location"),
    headers: JSON.stringify([...res.headers.entries()]),
    body,
  }
  answers.push(answer)
  return answer
}

/** String(x) that never throws (fast-check makes objects without a prototype). */
function str(v: unknown): string {
  if (typeof v === "string") return v
  try {
    return JSON.stringify(v) ?? String(v)
  } catch {
    return Object.prototype.toString.call(v)
  }
}

/** A path segment Express cannot percent-decode ("%zz", "%C0%AF"). */
function malformedEncoding(segment: string): boolean {
  try {
    decodeURIComponent(segment)
    return false
  } catch {
    return true
  }
}

function leakIn(text: string): string | undefined {
  return SECRETS.find((s) => text.includes(s))
}

// ---------------------------------------------------------------------------
// Generators
// ---------------------------------------------------------------------------
const WEBHOOK_KEYS = ["order_id", "uuid", "status", "hash", "message", "type", "amount", "currency", "transaction_id"]
const hex64 = fc.stringMatching(/^[0-9a-f]{64}$/)
/** ASCII including control characters (NUL, CR, LF …), which PostgreSQL text and jsonb refuse in part. */
const controlText = fc.string({ unit: "binary-ascii", maxLength: 30 })
const scalar = fc.oneof(
  fc.string({ maxLength: 40 }),
  controlText,
  fc.string({ unit: "grapheme", maxLength: 30 }),
  fc.integer(),
  fc.double({ noNaN: false }),
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom("", " ", "0", "-1", "1e9", "NaN", "Infinity", "250.00", "TRY", "successful", "failed", "%00", "<script>", "'; drop table odeme_payment; --")
)
const anyValue = fc.oneof(
  { weight: 4, arbitrary: scalar },
  { weight: 1, arbitrary: fc.array(scalar, { maxLength: 4 }) },
  { weight: 1, arbitrary: fc.dictionary(fc.string({ maxLength: 8 }), scalar, { maxKeys: 4 }) },
  { weight: 1, arbitrary: fc.string({ minLength: 200, maxLength: 3000 }) }
)
const headerName = fc
  .stringMatching(/^[a-z][a-z0-9-]{0,15}$/)
  .filter((n) => !["host", "content-length", "connection", "transfer-encoding", "keep-alive", "upgrade", "expect", "te", "trailer", "content-type", "x-publishable-api-key"].includes(n))
const headerValue = fc.stringMatching(/^[\x21-\x7e][\x20-\x7e]{0,60}$/)
const extraHeaders = fc.dictionary(headerName, headerValue, { maxKeys: 3 })

/** Encodes a webhook body the ways a client might: JSON, form, raw text, broken JSON. */
function encodeBody(kind: string, body: unknown): { contentType: string; text: string } {
  switch (kind) {
    case "form": {
      const params = new URLSearchParams()
      if (body && typeof body === "object" && !Array.isArray(body)) {
        for (const [k, v] of Object.entries(body as Record<string, unknown>)) params.append(k, typeof v === "string" ? v : JSON.stringify(v) ?? "")
      } else params.append("x", JSON.stringify(body) ?? "")
      return { contentType: "application/x-www-form-urlencoded", text: params.toString() }
    }
    case "text":
      return { contentType: "text/plain", text: JSON.stringify(body) ?? "" }
    case "broken":
      return { contentType: "application/json", text: (JSON.stringify(body) ?? "").slice(0, -1) + "{" }
    case "huge":
      return { contentType: "application/json", text: JSON.stringify({ ...(body as object), pad: "x".repeat(70_000) }) }
    default:
      return { contentType: "application/json", text: JSON.stringify(body) ?? "null" }
  }
}
const bodyKind = fc.constantFrom("json", "json", "json", "form", "form", "text", "broken", "huge")

/** Redirect-target lures for the return route's query string. */
const lure = fc.oneof(
  fc.constantFrom(
    "//evil.example",
    "//evil.example/checkout/return",
    "https://evil.example/steal",
    "http://localhost:8000.evil.example/",
    "http://localhost:8000@evil.example/",
    "javascript:alert(document.cookie)",
    "JaVaScRiPt:alert(1)",
    "data:text/html,<script>alert(1)</script>",
    "/\\evil.example",
    "\\\\evil.example",
    "https:evil.example",
    "http://evil.example%2F@localhost:8000",
    "%2F%2Fevil.example",
    "https%3A%2F%2Fevil.example",
    "\u0000https://evil.example",
    " https://evil.example"
  ),
  fc.webUrl().map((u) => u),
  fc.webUrl().map((u) => encodeURIComponent(u)),
  fc.string({ maxLength: 60 }),
  controlText
)
const RETURN_QUERY_KEYS = ["return_url", "redirect", "next", "url", "returnTo", "continue", "status", "uuid", "hash", "order_id", "amount", "currency", "ts", "type", "message", "transaction_id", "epin"]
const queryPairs = fc.array(
  fc.tuple(
    fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...RETURN_QUERY_KEYS) }, { weight: 1, arbitrary: fc.string({ maxLength: 12 }) }),
    fc.oneof(
      lure,
      fc.constantFrom("success", "successful", "error", "failed", "SUCCESS", "pending", "maybe"),
      fc.uuid(),
      hex64,
      fc.string({ maxLength: 1200 })
    ),
    fc.boolean() // encode the value or send it as is (only safe characters are kept raw)
  ),
  { maxLength: 7 }
)
function queryString(pairs: Array<[string, string, boolean]>): string {
  if (!pairs.length) return ""
  return (
    "?" +
    pairs
      .map(([k, v, encode]) => `${encodeURIComponent(k)}=${encode ? encodeURIComponent(v) : v.replace(/[^\x21-\x7e]|[#&%]/g, (c) => encodeURIComponent(c))}`)
      .join("&")
  )
}
/** A path segment: encoded arbitrary text, or raw nasty ones. */
const pathSegment = fc.oneof(
  fc.string({ maxLength: 80 }).map(encodeURIComponent),
  controlText.map(encodeURIComponent),
  controlText.map((t) => `payses_${encodeURIComponent(t)}AAAAAAAAAA`),
  fc.stringMatching(/^payses_[A-Za-z0-9]{10,60}$/),
  fc.constantFrom("..", "%2e%2e", "%2F..%2F", "%zz", "%", "payses_", "payses_%00AAAAAAAAAAAA", "a%2Fb", "%E2%80%AE", "%C0%AF", "null", "undefined", "0")
)

medusaIntegrationTestRunner({
  cwd: process.cwd(),
  testSuite: ({ api, getContainer }) => {
    const db = () => getContainer().resolve(ContainerRegistrationKeys.PG_CONNECTION)

    /** Row counts plus a hash of the whole odeme_payment table. */
    async function snapshot() {
      const [{ n: payments, h: paymentHash }] = (
        // Every column but the verify budget's bookkeeping (forged copies do spend the budget: that is its point).
        await db().raw(
          `select count(*)::int as n, coalesce(md5(string_agg((to_jsonb(t) - 'verify_calls' - 'verify_window_started_at')::text, '|' order by t.id)), '') as h from odeme_payment t`
        )
      ).rows
      const [{ n: notifications }] = (await db().raw(`select count(*)::int as n from odeme_notification`)).rows
      return { payments, paymentHash, notifications: notifications as number }
    }
    const notificationCount = async () => (await snapshot()).notifications

    /**
     * Express throws "Failed to decode param" (a URIError with status 400) for a
     * path parameter such as "%zz" or "%C0%AF", and Medusa 2.21's error handler
     * answers it with 500 on every route with parameters, core routes included.
     * That is framework behaviour a plugin cannot change without replacing the
     * app-wide error handler; such a 5xx is accepted only if Medusa's own
     * GET /store/carts/:id answers the same segment with the same status.
     */
    const coreAnswers = new Map<string, number>()
    async function acceptFrameworkDecodeError(res: Answer, segments: string[], store: SeededStore) {
      const headers = store.headers.headers
      const bad = segments.find(malformedEncoding)
      if (!bad) throw new Error(`${res.method} ${res.url} → ${res.status}: ${res.body.slice(0, 300)}`)
      if (!coreAnswers.has(bad)) {
        const core = await send("GET", `/store/carts/${bad}`, { headers })
        if (core.status !== res.status) throw new Error(`core ${core.status} ${core.body.slice(0, 300)} vs plugin ${res.url} ${res.status} ${res.body.slice(0, 300)}`)
        coreAnswers.set(bad, core.status)
      }
      expect(coreAnswers.get(bad)).toBe(res.status)
      frameworkDecodeErrors.push(`${res.method} ${new URL(res.url).pathname}`)
    }

    async function assertNoSecretInStoredData() {
      const payment = getContainer().resolve(Modules.PAYMENT)
      const sessions = await payment.listPaymentSessions({}, { take: 10_000 })
      expect(sessions.length).toBeGreaterThan(0)
      for (const s of sessions) expect(leakIn(JSON.stringify(s))).toBeUndefined()
      const rows = [...(await db()("odeme_payment").select("*")), ...(await db()("odeme_notification").select("*"))]
      expect(leakIn(JSON.stringify(rows))).toBeUndefined()
    }

    async function freshForm(store: SeededStore, sessionId: string, cartId: string) {
      const res = await api.post(`/store/odeme/payment-sessions/${sessionId}/form`, { cart_id: cartId }, store.headers)
      answers.push({ method: "POST", url: "form", status: res.status, location: null, headers: JSON.stringify(res.headers), body: JSON.stringify(res.data) })
      return res.data.form
    }

    async function checkoutSession(store: SeededStore) {
      const { cart, session, response } = await cartWithSession(api, store, CHECKOUT_PROVIDER, {})
      answers.push({ method: "POST", url: "session", status: response.status, location: null, headers: JSON.stringify(response.headers), body: JSON.stringify(response.data) })
      expect(response.status).toBe(200)
      return { cart, session }
    }

    beforeEach(async () => {
      await env.emulator.control("POST", "/_control/reset")
      await env.emulator.control("POST", "/_control/config", { webhookUrl: `${env.backendUrl}/odeme/webhook`, webhookRetryDelaysMs: [300, 600] })
    })

    it("real paths: a card checkout (session → form → approve → webhook) and a bank transfer, with no secret anywhere", async () => {
      const store = await seedStore(getContainer(), { providers: [CHECKOUT_PROVIDER, TRANSFER_PROVIDER] })

      // Card: the webhook is delivered by the emulator; the browser's return hop too.
      const { cart, session } = await checkoutSession(store)
      const page = await openCheckout(await freshForm(store, session.id, cart.id))
      const successUrl = await payByCard(page, "approve")
      const back = await send("GET", successUrl.slice(env.backendUrl.length))
      expect(back.status).toBe(303)
      expect(new URL(back.location!).origin).toBe(STOREFRONT)
      await waitFor(async () => {
        const orders = await ordersOfCart(getContainer(), cart.id)
        return orders.length === 1 && orders[0].payment_collections?.[0]?.payments?.[0]?.captured_at
      })
      const done = await completeCart(api, store, cart.id)
      answers.push({ method: "POST", url: "complete", status: done.status, location: null, headers: JSON.stringify(done.headers), body: JSON.stringify(done.data) })
      expect(done.data.type).toBe("order")

      // Transfer through the API: accounts, session, completion (the service approves at once).
      const banks = await send("GET", "/store/odeme/banks", { headers: store.headers.headers })
      expect(banks.status).toBe(200)
      const bankId = JSON.parse(banks.body).bank_groups[0].accounts[0].bank_id
      const t = await cartWithSession(api, store, TRANSFER_PROVIDER, { bank_id: bankId, customer_name: "Ayşe Yılmaz", sandbox_result: "successful" })
      answers.push({ method: "POST", url: "session", status: t.response.status, location: null, headers: JSON.stringify(t.response.headers), body: JSON.stringify(t.response.data) })
      expect(t.response.status).toBe(200)
      const placed = await completeCart(api, store, t.cart.id)
      answers.push({ method: "POST", url: "complete", status: placed.status, location: null, headers: JSON.stringify(placed.headers), body: JSON.stringify(placed.data) })
      expect(placed.data.type).toBe("order")
      const status = await send("GET", `/store/odeme/payment-sessions/${t.session.id}?cart_id=${t.cart.id}`, { headers: store.headers.headers })
      expect(status.status).toBe(200)

      // Let the emulator's webhooks (card and transfer) be delivered and processed before the next test resets the database.
      await waitFor(async () => {
        const hooks = (await env.emulator.control("GET", "/_control/webhooks")).result as Array<{ state: string }>
        const open = await db()("odeme_notification").whereNotIn("state", ["done", "dead"]).count("* as n")
        return hooks.length >= 1 && hooks.every((h) => h.state === "delivered") && Number(open[0].n) === 0
      }, 30_000)
      await assertNoSecretInStoredData()
      // The plugin's own lines of the real paths were written (so the log check below is not vacuous).
      expect(logLines.some((l) => l.includes("medusa-payment-odeme: notification") && l.includes(": paid"))).toBe(true)
    })

    it("webhook: random bodies, encodings, headers and sizes → never 5xx, nothing stored for invalid input", async () => {
      const store = await seedStore(getContainer(), { providers: [CHECKOUT_PROVIDER] })
      const { session } = await checkoutSession(store)
      const sessionIds = [session.id, (await checkoutSession(store)).session.id]
      const before = await snapshot()

      // 1. Junk: arbitrary JSON values and dictionaries with known and unknown keys.
      await fc.assert(
        fc.asyncProperty(
          fc.oneof(
            fc.jsonValue({ maxDepth: 3 }),
            fc.dictionary(fc.oneof(fc.constantFrom(...WEBHOOK_KEYS), fc.string({ maxLength: 10 })), anyValue, { maxKeys: 10 })
          ),
          bodyKind,
          extraHeaders,
          async (body, kind, headers) => {
            generatedRequests++
            const { contentType, text } = encodeBody(kind, body)
            const count = await notificationCount()
            const res = await send("POST", "/odeme/webhook", { headers: { ...headers, "content-type": contentType }, body: text })
            expect(res.status).toBeLessThan(500)
            if (res.status >= 400) expect(await notificationCount()).toBe(count)
            if (kind === "huge") expect(res.status).toBe(413)
          }
        ),
        { seed: SEED, numRuns: RUNS.webhookJunk }
      )

      // 2. Valid-looking notifications (real session ids among others) with one field mutated or removed.
      let accepted = 0
      await fc.assert(
        fc.asyncProperty(
          fc.record({
            order_id: fc.oneof(fc.constantFrom(...sessionIds), fc.stringMatching(/^payses_[A-Z0-9]{26}$/)),
            uuid: fc.uuid(),
            status: fc.constantFrom("successful", "failed", "success", "error", " SUCCESSFUL "),
            hash: fc.oneof(hex64, fc.string({ minLength: 1, maxLength: 100 })),
            amount: fc.constantFrom("250.00", "250", "1.00", 250),
            currency: fc.constantFrom("TRY", "try", "USD"),
            type: fc.constantFrom("credit_card", "bank_transfer"),
            message: fc.oneof(fc.string({ maxLength: 50 }), controlText),
            transaction_id: fc.string({ maxLength: 30 }),
          }),
          fc.constantFrom("none", "none", "delete", "replace", "replace", "extra"),
          fc.constantFrom(...WEBHOOK_KEYS),
          anyValue,
          fc.constantFrom("json", "json", "form"),
          async (base, mutation, field, value, kind) => {
            generatedRequests++
            const body: Record<string, unknown> = { ...base }
            if (mutation === "delete") delete body[field]
            if (mutation === "replace") body[field] = value
            if (mutation === "extra") body[`x_${field}`] = value
            const { contentType, text } = encodeBody(kind, body)
            const count = await notificationCount()
            const res = await send("POST", "/odeme/webhook", { headers: { "content-type": contentType }, body: text })
            expect(res.status).toBeLessThan(500)
            const after = await notificationCount()
            if (res.status >= 400) expect(after).toBe(count)
            else {
              expect(res.status).toBe(200)
              expect(sessionIds).toContain(str(body.order_id).trim())
              expect(after - count).toBeLessThanOrEqual(1)
              accepted++
            }
            if (!sessionIds.includes(str(body.order_id).trim())) expect(res.status).toBeGreaterThanOrEqual(400)
          }
        ),
        {
          seed: SEED + 1,
          numRuns: RUNS.webhookValidLooking,
          examples: [
            [{ order_id: sessionIds[0], uuid: "00000000-0000-4000-8000-000000000001", status: "successful", hash: "f".repeat(64), amount: "250.00", currency: "TRY", type: "credit_card", message: "\u0000", transaction_id: "" }, "none", "order_id", null, "json"],
            [{ order_id: sessionIds[0], uuid: "00000000-0000-4000-8000-000000000002", status: "successful", hash: "f".repeat(64), amount: "250.00", currency: "TRY", type: "credit_card", message: "", transaction_id: "" }, "extra", "message", "\u0000", "form"],
          ],
        }
      )

      // Every stored notification is a forgery: once processed, none of them changed a payment.
      expect(accepted).toBeGreaterThan(0)
      await waitFor(async () => Number((await db()("odeme_notification").whereIn("state", ["received", "processing"]).count("* as n"))[0].n) === 0, 30_000)
      const after = await snapshot()
      expect(after.payments).toBe(before.payments)
      expect(after.paymentHash).toBe(before.paymentHash)
      const rows = await db()("odeme_notification").select("outcome", "state", "session_id")
      expect(rows.length).toBe(after.notifications - before.notifications)
      expect(rows.every((r: any) => sessionIds.includes(r.session_id))).toBe(true)
      expect(rows.filter((r: any) => r.state === "done").every((r: any) => r.outcome === "rejected")).toBe(true)
      await assertNoSecretInStoredData()
    })

    it("return route: random session ids, outcomes and query strings → never 5xx, every redirect to the storefront, unknown sessions store nothing", async () => {
      const store = await seedStore(getContainer(), { providers: [CHECKOUT_PROVIDER] })
      // A settled (failed) session answers at once; a pending one would wait returnWaitMs per call.
      const { cart, session } = await checkoutSession(store)
      const page = await openCheckout(await freshForm(store, session.id, cart.id))
      await payByCard(page, "reject")
      await waitFor(async () => (await db()("odeme_payment").where({ session_id: session.id }).first()).status === "failed")
      const before = await snapshot()
      let redirects = 0

      await fc.assert(
        fc.asyncProperty(
          fc.oneof({ weight: 3, arbitrary: fc.constant(session.id) }, { weight: 2, arbitrary: pathSegment }),
          fc.oneof({ weight: 4, arbitrary: fc.constantFrom("success", "cancel") }, { weight: 1, arbitrary: pathSegment }),
          queryPairs,
          extraHeaders,
          async (sessionSegment, outcome, pairs, headers) => {
            generatedRequests++
            const count = await notificationCount()
            const res = await send("GET", `/odeme/return/${sessionSegment}/${outcome}${queryString(pairs)}`, { headers })
            if (res.status >= 500) await acceptFrameworkDecodeError(res, [sessionSegment, outcome], store)
            else expect(res.status).toBeLessThan(500)
            if (res.status >= 300 && res.status < 400) {
              redirects++
              expect(res.location).toBeTruthy()
              const target = new URL(res.location!)
              expect(target.origin).toBe(STOREFRONT)
              expect(res.location!.startsWith(`${STOREFRONT}/`)).toBe(true)
              expect(target.searchParams.get("status")).toBe("failed")
              expect(target.searchParams.get("session_id")).toBe(session.id)
            }
            if (sessionSegment !== session.id) {
              expect(res.status).toBeGreaterThanOrEqual(400)
              expect(await notificationCount()).toBe(count)
            }
          }
        ),
        {
          seed: SEED + 2,
          numRuns: RUNS.returnRoute,
          // Always tried, besides the generated ones: NUL characters in stored query values.
          examples: [
            [session.id, "success", [["message", "a\u0000b", true]], {}],
            [session.id, "success", [["uuid", "u\u0000", true], ["hash", "h", true], ["status", "success", true]], {}],
          ],
        }
      )

      expect(redirects).toBeGreaterThan(50)
      await waitFor(async () => Number((await db()("odeme_notification").whereIn("state", ["received", "processing"]).count("* as n"))[0].n) === 0, 30_000)
      const after = await snapshot()
      expect(after.paymentHash).toBe(before.paymentHash)
      const rows = await db()("odeme_notification").select("session_id", "source", "outcome", "state")
      // Only the known session's returns (and the emulator's own webhook of the rejected payment) were stored.
      expect(rows.every((r: any) => r.session_id === session.id)).toBe(true)
      await assertNoSecretInStoredData()
    })

    it("store routes: random ids, cart ids, bodies and headers → never 5xx, nothing written", async () => {
      const store = await seedStore(getContainer(), { providers: [CHECKOUT_PROVIDER] })
      const { cart, session } = await checkoutSession(store)
      const before = await snapshot()
      const idArb = fc.oneof({ weight: 2, arbitrary: fc.constant(session.id) }, { weight: 3, arbitrary: pathSegment })
      const cartArb = fc.oneof(fc.constant(cart.id), fc.string({ maxLength: 120 }), fc.stringMatching(/^cart_[A-Z0-9]{26}$/))
      const statuses = new Map<number, number>()

      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom("banks", "status", "status", "form", "form"),
          idArb,
          fc.oneof(
            cartArb.map((c) => `?cart_id=${encodeURIComponent(c)}`),
            queryPairs.map((p) => queryString(p)),
            cartArb.map((c) => `?cart_id[]=${encodeURIComponent(c)}&cart_id[]=x`),
            cartArb.map((c) => `?cart_id[a]=${encodeURIComponent(c)}`)
          ),
          fc.oneof(
            fc.jsonValue({ maxDepth: 3 }),
            cartArb.map((c) => ({ cart_id: c })),
            anyValue.map((v) => ({ cart_id: v })),
            fc.dictionary(fc.string({ maxLength: 10 }), anyValue, { maxKeys: 5 })
          ),
          fc.boolean(),
          extraHeaders,
          async (route, id, query, body, withKey, headers) => {
            generatedRequests++
            const h: Record<string, string> = { ...headers, ...(withKey ? store.headers.headers : {}) }
            let res: Answer
            if (route === "banks") res = await send("GET", `/store/odeme/banks${query}`, { headers: h })
            else if (route === "status") res = await send("GET", `/store/odeme/payment-sessions/${id}${query}`, { headers: h })
            else
              res = await send("POST", `/store/odeme/payment-sessions/${id}/form${query}`, {
                headers: { ...h, "content-type": "application/json" },
                body: JSON.stringify(body) ?? "null",
              })
            statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1)
            if (res.status >= 500) await acceptFrameworkDecodeError(res, route === "banks" ? [] : [id], store)
            else expect(res.status).toBeLessThan(500)
            if (!withKey) expect(res.status).toBeGreaterThanOrEqual(400)
          }
        ),
        { seed: SEED + 3, numRuns: RUNS.storeRoutes, examples: [["form", "payses_%00AAAAAAAAAA", `?cart_id=${cart.id}`, { cart_id: cart.id }, true, {}], ["status", "payses_%00AAAAAAAAAA", `?cart_id=${cart.id}`, {}, true, {}]] }
      )

      expect(statuses.get(200) ?? 0).toBeGreaterThan(0)
      const after = await snapshot()
      expect(after).toEqual(before)
      await assertNoSecretInStoredData()
    })

    it(`no secret in any response, header or log line; at least 1,000 generated requests`, () => {
      expect(generatedRequests).toBeGreaterThanOrEqual(1000)
      expect(answers.length).toBeGreaterThan(1000)
      for (const a of answers) {
        const leaked = leakIn(a.body) ?? leakIn(a.headers) ?? leakIn(a.location ?? "")
        if (leaked) throw new Error(`${a.method} ${a.url} → ${a.status} contains the API key`)
      }
      expect(logLines.length).toBeGreaterThan(10)
      const leakedLines = logLines.filter((l) => leakIn(l))
      expect(leakedLines).toEqual([])
      process.stdout.write(
        `[fuzz] seed ${SEED}: ${generatedRequests} generated requests, ${answers.length} answers and ${logLines.length} log lines checked; ` +
          `${frameworkDecodeErrors.length} Medusa-wide 500s for undecodable path parameters (same answer as GET /store/carts/:id)\n`
      )
    })
  },
})
