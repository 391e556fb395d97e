import { isIP } from "node:net"
import { z } from "@medusajs/framework/zod"
import { DEFAULT_REFERENCE_PREFIX, REFERENCE_PREFIX_PATTERN } from "./order-reference"

/** Currencies per flow (spec §4.2 and §4.5). */
export const CHECKOUT_CURRENCIES = ["TRY", "USD", "EUR", "GBP"] as const
export const TRANSFER_CURRENCIES = ["TRY", "USD", "EUR"] as const
/** Currencies `exchangeRatesTry` may hold a TRY rate for. */
const RATE_CURRENCIES = ["USD", "EUR", "GBP"] as const

/** Default payment description (shown on the service's page and in the merchant panel). */
export const DEFAULT_DESCRIPTION = "Sipariş ödemesi {order}"

const decimal = z
  .union([z.number(), z.string()])
  .transform((v) => String(v).trim())
  .refine((v) => /^\d+(\.\d+)?$/.test(v), "must be a positive decimal number such as 10 or 10.00")

/** The message for a field left out; `undefined` keeps zod's own for every other issue. */
const whenMissing = (message: string) => (issue: { input?: unknown }) => (issue.input === undefined ? message : undefined)

/** `URL.canParse`, not `z.url()`: zod 4's URL check trims the value, and a URL with spaces around it stays refused. */
const httpUrl = z
  .string({ error: whenMissing("is required") })
  .refine((v) => URL.canParse(v), "must be a full URL such as https://shop.example")
  .refine((v) => /^https?:\/\//i.test(v), "must start with http:// or https://")
  .transform((v) => v.replace(/\/+$/, ""))

export const odemeOptionsSchema = z
  .strictObject({
    apiKey: z.string({ error: whenMissing("is required (the API key from the merchant panel)") }).min(1, "is required"),
    apiId: z.coerce
      .number({ error: "must be the integer api_id from the merchant panel" })
      .int("must be an integer")
      .positive("must be a positive integer"),
    baseUrl: httpUrl,
    mode: z.enum(["sandbox", "live"], { error: 'must be "sandbox" or "live"' }).default("sandbox"),
    backendUrl: httpUrl,
    storefrontUrl: httpUrl,
    /** More storefront origins the return route may send customers back to. */
    storefrontOrigins: z.array(httpUrl).default([]),
    /** Live minimum in TRY (spec §8); the service's own value is not published. */
    minimumAmountTry: decimal.optional(),
    /** TRY value of one unit, used only to apply `minimumAmountTry` to USD/EUR/GBP carts. */
    exchangeRatesTry: z
      .record(z.string(), decimal)
      .superRefine((rates, ctx) => {
        for (const key of Object.keys(rates)) {
          if (!(RATE_CURRENCIES as readonly string[]).includes(key)) {
            ctx.addIssue({ code: "custom", path: [key], message: `is not a currency with a rate (use ${RATE_CURRENCIES.join(", ")})` })
          }
        }
      })
      .default({}),
    /**
     * The start of the short reference each payment is given (`OD-7K3F9Q`), sent to the service as
     * `order_id`: the shopper reads it on the service's page. Changing it leaves existing references as they are.
     */
    referencePrefix: z
      .string()
      .trim()
      .regex(REFERENCE_PREFIX_PATTERN, "must be 1 to 6 capital letters or digits, such as OD")
      .default(DEFAULT_REFERENCE_PREFIX),
    httpTimeoutMs: z.coerce.number().int().min(100, "must be at least 100 ms").max(120_000).default(10_000),
    httpRetries: z.coerce.number().int().min(0).max(5).default(2),
    transfer: z
      .strictObject({
        bankGroupId: z.coerce.number().int().positive().optional(),
        expiryHours: z.coerce.number().positive("must be positive").default(48),
        cancelOrderOnExpiry: z.boolean().default(true),
        bankCacheSeconds: z.coerce.number().int().min(0).default(300),
        /** Check API transfers in this process's poller passes (off: the passes still retry the inbox and reconcile). */
        pollerEnabled: z.boolean().default(true),
        /**
         * Cron of the poller job (spec §4.6 has no push for every state). Checked here for its shape: Medusa
         * parses it only when it schedules the job, and a bad one then stops the boot with a message that
         * does not name this option.
         */
        pollSchedule: z
          .string()
          .trim()
          .regex(
            /^(@(yearly|annually|monthly|weekly|daily|hourly)|[\w*?/,#-]+(\s+[\w*?/,#-]+){4,5})$/,
            'must be a cron expression of 5 or 6 fields, such as "* * * * *" (every minute), or @hourly, @daily …'
          )
          .default("* * * * *"),
        pollConcurrency: z.coerce.number().int().min(1).max(50).default(5),
        pollMaxPerRun: z.coerce.number().int().min(1).max(100_000).default(500),
      })
      .prefault({}),
    checkout: z
      .strictObject({
        /**
         * Spec §4.2 rule 3. "B": charged in the currency and amount sent (default).
         * "A": the service converts a non-TRY amount to TRY; the confirmed amount is then
         * accepted in TRY within `conversionTolerancePercent` of the converted cart amount.
         */
        currencyVariant: z.enum(["A", "B"]).default("B"),
        conversionTolerancePercent: z.coerce.number().min(0).max(20).default(3),
        /**
         * Payment description, read by the shopper on the service's page and by the merchant in the
         * panel. `{order}` becomes the order number (`#1234`) when the payment is an order's balance
         * (a checkout's order has no number before it is paid: then it is the payment's short reference);
         * `{reference}` becomes the short reference. Never empty (spec §5.2 rule 5).
         */
        description: z.string().trim().min(1, "must not be empty").default(DEFAULT_DESCRIPTION),
        /** Storefront path the return route sends customers to (on storefrontUrl). */
        returnPath: z
          .string()
          .regex(/^\/[^\s]*$/, "must be a path starting with /")
          .default("/checkout/return"),
        /** How long the return route waits for the webhook's verdict before redirecting. */
        returnWaitMs: z.coerce.number().int().min(0).max(15_000).default(4_000),
      })
      .prefault({}),
    /**
     * Whether a proxy in front of Medusa is trusted to say who the customer is
     * (X-Forwarded-For). Off: the transfer API's `client_ip` is the address that
     * connected, so a customer cannot choose the IP the service is told.
     */
    trustProxy: z.boolean().default(false),
    /**
     * Addresses of storefront servers that create payment sessions on their
     * customers' behalf (server actions) and report the customer's address in
     * the `x-odeme-client-ip` header. Only these are believed.
     */
    trustedStorefrontAddresses: z.array(z.string().refine((a) => isIP(a) !== 0, "must be an IP address")).default([]),
    webhook: z
      .strictObject({
        /**
         * Off by default. Notifications accepted per minute from one client address
         * before 429. Behind a TLS proxy the service and everyone else share one
         * address, so a limit there refuses the service's genuine deliveries too:
         * set it only where senders are told apart.
         */
        maxPerMinutePerAddress: z.coerce.number().int().min(1).max(1_000_000).optional(),
        /**
         * The addresses (or CIDR ranges) the service delivers notifications from, when the
         * merchant knows them and no one else shares them; read through `trustProxy` like
         * every client address. Deliveries from them are verified first and outside the
         * session's verify budget, and never count towards `maxPerMinutePerAddress`, so a
         * flood of forged copies from elsewhere holds nothing back.
         */
        serviceAddresses: z
          .array(z.string().trim().refine(isAddressOrRange, "must be an IP address or a CIDR range such as 203.0.113.0/24"))
          .default([]),
      })
      .prefault({}),
    /** The spec has no refund call: "manual" records it for the panel, "reject" refuses. */
    refunds: z.enum(["manual", "reject"]).default("manual"),
    notifications: z
      .strictObject({
        maxAttempts: z.coerce.number().int().min(1).max(100).default(12),
        /** The first retry's delay; each next one doubles, up to 10 minutes. Tests shorten it so none waits out the production timer. */
        retryBaseMs: z.coerce.number().int().min(10).max(60_000).default(2_000),
        /** How long a process holds a notification it is processing; after a crash it is taken up again once this ends. */
        leaseSeconds: z.coerce.number().int().min(5).max(3600).default(120),
        /**
         * Verify calls per payment session per window. Forged copies of a notification
         * must not drain the service's rate limit; the rest stay due, oldest first, and
         * are verified in the next window without using up their attempts.
         */
        verifyBudgetPerSession: z.coerce.number().int().min(1).max(1000).default(20),
        verifyBudgetWindowSeconds: z.coerce.number().int().min(1).max(3600).default(60),
        /** Verify calls per window that customers' returns may use across all sessions, per process; webhooks never wait for it. */
        returnVerifyBudgetPerStore: z.coerce.number().int().min(1).max(100_000).default(300),
        /**
         * A customer who came back from the payment page saying "paid" with no verified
         * notification after this long is listed in "needs attention": the service's
         * webhooks are not arriving (a wrong or missing webhook URL in the merchant panel).
         */
        unconfirmedAfterMinutes: z.coerce
          .number()
          .positive()
          .max(24 * 60)
          .default(5),
        /**
         * A stored notification no process has taken up for this long (the worker or its Redis
         * is down), or one held back this long by forged copies of its session, is an error on
         * Settings → Odeme and an item in "needs attention"; so is a poller that has not run
         * for three of its periods.
         */
        unprocessedAfterMinutes: z.coerce
          .number()
          .positive()
          .max(24 * 60)
          .default(3),
        /** Consecutive failures to capture a paid payment, or to ask the service about a transfer, before a person is asked. */
        failuresBeforeAttention: z.coerce.number().int().min(1).max(1000).default(5),
      })
      .prefault({}),
  })
  .superRefine((o, ctx) => {
    if (o.mode === "live") {
      // The API key travels in a header: in live mode only over TLS, or over this
      // machine's loopback (a TLS-terminating sidecar, or the emulator in tests).
      if (!o.baseUrl.startsWith("https://") && !/^http:\/\/(127\.0\.0\.1|localhost|\[::1\])(:\d+)?(\/|$)/.test(o.baseUrl)) {
        ctx.addIssue({ code: "custom", path: ["baseUrl"], message: "must use https:// in live mode (the API key is sent to it)" })
      }
      for (const key of ["backendUrl", "storefrontUrl"] as const) {
        if (!o[key].startsWith("https://")) {
          ctx.addIssue({ code: "custom", path: [key], message: "must use https:// in live mode" })
        }
      }
      o.storefrontOrigins.forEach((origin, i) => {
        if (!origin.startsWith("https://")) {
          ctx.addIssue({ code: "custom", path: ["storefrontOrigins", i], message: "must use https:// in live mode" })
        }
      })
    }
  })

/** An IPv4 or IPv6 address, or a CIDR range of one. */
function isAddressOrRange(value: string): boolean {
  const [address, bits, ...rest] = value.split("/")
  const family = isIP(address)
  if (!family || rest.length) return false
  if (bits === undefined) return true
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (family === 6 ? 128 : 32)
}

export type OdemeOptionsInput = z.input<typeof odemeOptionsSchema>
export type OdemeOptions = z.output<typeof odemeOptionsSchema>

export class OdemeOptionsError extends Error {
  constructor(readonly problems: string[]) {
    super(`medusa-payment-odeme: invalid options: ${problems.join("; ")}`)
    this.name = "OdemeOptionsError"
  }
}

/**
 * Keys Medusa itself adds to a module's options object (the shared database
 * connection). The plugin's options object is the module's, so they are not
 * the store's typos.
 */
const MEDUSA_INJECTED_KEYS = ["database"]

/** Parses options; throws one error that lists every bad field. */
export function parseOdemeOptions(input: unknown): OdemeOptions {
  const result = odemeOptionsSchema.safeParse(withoutInjectedKeys(input ?? {}))
  if (result.success) return result.data
  const problems = result.error.issues.flatMap(describeIssue)
  throw new OdemeOptionsError(problems)
}

function withoutInjectedKeys(input: unknown): unknown {
  if (!input || typeof input !== "object" || Array.isArray(input)) return input
  const copy: Record<string, unknown> = { ...(input as Record<string, unknown>) }
  for (const key of MEDUSA_INJECTED_KEYS) delete copy[key]
  return copy
}

function describeIssue(issue: z.core.$ZodIssue): string[] {
  const where = issue.path.join(".")
  if (issue.code !== "unrecognized_keys") return [`${where || "options"} ${issue.message}`]
  const known = knownKeysAt(issue.path)
  return issue.keys.map((key) => {
    const name = where ? `${where}.${key}` : key
    const close = closestKey(key, known)
    return `${name} is not an option${close ? ` (did you mean "${where ? `${where}.${close}` : close}"?)` : ""}`
  })
}

/** The option names accepted at one level of the schema, for "did you mean". */
function knownKeysAt(path: ReadonlyArray<PropertyKey>): string[] {
  let schema: z.ZodType = odemeOptionsSchema
  for (const segment of [undefined, ...path]) {
    schema = unwrapOption(schema)
    if (segment === undefined) continue
    if (!(schema instanceof z.ZodObject)) return []
    const next = (schema.shape as Record<string, z.ZodType>)[String(segment)]
    if (!next) return []
    schema = next
  }
  schema = unwrapOption(schema)
  return schema instanceof z.ZodObject ? Object.keys(schema.shape) : []
}

/** An option's schema without its default, optionality or transform: an object for a group of options. */
export function unwrapOption(schema: z.ZodType): z.ZodType {
  for (;;) {
    if (schema instanceof z.ZodPipe) schema = schema.in as z.ZodType
    else if (schema instanceof z.ZodDefault || schema instanceof z.ZodPrefault || schema instanceof z.ZodOptional)
      schema = schema.unwrap() as z.ZodType
    else return schema
  }
}

/** The known key a typo most likely meant: same letters ignoring case and separators, or at most two edits away. */
export function closestKey(key: string, known: readonly string[]): string | undefined {
  const norm = (s: string) => s.toLowerCase().replace(/[_\-\s]/g, "")
  const k = norm(key)
  let best: { name: string; distance: number } | undefined
  for (const name of known) {
    const n = norm(name)
    const distance = n === k ? 0 : editDistance(k, n)
    if (distance <= Math.min(2, Math.floor(Math.max(k.length, n.length) / 3)) && (!best || distance < best.distance)) {
      best = { name, distance }
    }
  }
  return best?.name
}

function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const row = [i]
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1))
    }
    prev = row
  }
  return prev[b.length]
}

/** Origins the return route may redirect to. */
export function allowedStorefrontOrigins(options: OdemeOptions): string[] {
  return [options.storefrontUrl, ...options.storefrontOrigins].map((u) => new URL(u).origin)
}
