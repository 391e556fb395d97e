import { z } from "zod"

/** Currencies per flow (spec §4.2 and §4.5). */
export const CHECKOUT_CURRENCIES = ["TRY", "USD", "EUR", "GBP"] as const
export const TRANSFER_CURRENCIES = ["TRY", "USD", "EUR"] as const

const decimal = z
  .union([z.number(), z.string()])
  .transform((v) => String(v).trim())
  .refine((v) => /^\d+(\.\d+)?$/.test(v), "must be a positive decimal number such as 10 or 10.00")

const httpUrl = z
  .string({ required_error: "is required" })
  .url("must be a full URL such as https://shop.example")
  .refine((v) => /^https?:\/\//i.test(v), "must start with http:// or https://")
  .transform((v) => v.replace(/\/+$/, ""))

export const odemeOptionsSchema = z
  .object({
    apiKey: z.string({ required_error: "is required (the API key from the merchant panel)" }).min(1, "is required"),
    apiId: z.coerce
      .number({ invalid_type_error: "must be the integer api_id from the merchant panel" })
      .int("must be an integer")
      .positive("must be a positive integer"),
    baseUrl: httpUrl,
    mode: z.enum(["sandbox", "live"], { errorMap: () => ({ message: 'must be "sandbox" or "live"' }) }).default("sandbox"),
    backendUrl: httpUrl,
    storefrontUrl: httpUrl,
    /** More storefront origins the return route may send customers back to. */
    storefrontOrigins: z.array(httpUrl).default([]),
    /** Live minimum in TRY (spec §8); the service's own value is not published. */
    minimumAmountTry: decimal.optional(),
    /** TRY value of one unit, used only to apply `minimumAmountTry` to USD/EUR/GBP carts. */
    exchangeRatesTry: z.record(decimal).default({}),
    httpTimeoutMs: z.coerce.number().int().min(100, "must be at least 100 ms").max(120_000).default(10_000),
    httpRetries: z.coerce.number().int().min(0).max(5).default(2),
    transfer: z
      .object({
        bankGroupId: z.coerce.number().int().positive().optional(),
        expiryHours: z.coerce.number().positive("must be positive").default(48),
        cancelOrderOnExpiry: z.boolean().default(true),
        bankCacheSeconds: z.coerce.number().int().min(0).default(300),
        /** Run the polling job in this process (e.g. off on a server when a worker polls). */
        pollerEnabled: z.boolean().default(true),
        /** Cron of the poller job (spec §4.6 has no push for every state). */
        pollSchedule: z.string().default("* * * * *"),
        pollConcurrency: z.coerce.number().int().min(1).max(50).default(5),
        pollMaxPerRun: z.coerce.number().int().min(1).max(100_000).default(500),
      })
      .default({}),
    checkout: z
      .object({
        /**
         * Spec §4.2 rule 3. "B": charged in the currency and amount sent (default).
         * "A": the service converts a non-TRY amount to TRY; the confirmed amount is then
         * accepted in TRY within `conversionTolerancePercent` of the converted cart amount.
         */
        currencyVariant: z.enum(["A", "B"]).default("B"),
        conversionTolerancePercent: z.coerce.number().min(0).max(20).default(3),
        /** Payment description; `{reference}` is replaced by the session id. Never empty (spec §5.2 rule 5). */
        description: z.string().min(1, "must not be empty").default("Order {reference}"),
        /** Storefront path the return route sends customers to (on storefrontUrl). */
        returnPath: z
          .string()
          .regex(/^\/[^\s]*$/, "must be a path starting with /")
          .default("/checkout/return"),
        /** How long the return route waits for the webhook's verdict before redirecting. */
        returnWaitMs: z.coerce.number().int().min(0).max(15_000).default(4_000),
      })
      .default({}),
    /** The spec has no refund call: "manual" records it for the panel, "reject" refuses. */
    refunds: z.enum(["manual", "reject"]).default("manual"),
    notifications: z
      .object({
        maxAttempts: z.coerce.number().int().min(1).max(100).default(12),
        /** How long a process holds a notification it is processing; after a crash it is taken up again once this ends. */
        leaseSeconds: z.coerce.number().int().min(5).max(3600).default(120),
      })
      .default({}),
  })
  .superRefine((o, ctx) => {
    if (o.mode === "live") {
      for (const key of ["backendUrl", "storefrontUrl"] as const) {
        if (!o[key].startsWith("https://")) {
          ctx.addIssue({ code: z.ZodIssueCode.custom, path: [key], message: "must use https:// in live mode" })
        }
      }
      o.storefrontOrigins.forEach((origin, i) => {
        if (!origin.startsWith("https://")) {
          ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["storefrontOrigins", i], message: "must use https:// in live mode" })
        }
      })
    }
  })

export type OdemeOptionsInput = z.input<typeof odemeOptionsSchema>
export type OdemeOptions = z.output<typeof odemeOptionsSchema>

export class OdemeOptionsError extends Error {
  constructor(readonly problems: string[]) {
    super(`medusa-payment-odeme: invalid options: ${problems.join("; ")}`)
    this.name = "OdemeOptionsError"
  }
}

/** Parses options; throws one error that lists every bad field. */
export function parseOdemeOptions(input: unknown): OdemeOptions {
  const result = odemeOptionsSchema.safeParse(input ?? {})
  if (result.success) return result.data
  const problems = result.error.issues.map((i) => `${i.path.join(".") || "options"} ${i.message}`)
  throw new OdemeOptionsError(problems)
}

/** Origins the return route may redirect to. */
export function allowedStorefrontOrigins(options: OdemeOptions): string[] {
  return [options.storefrontUrl, ...options.storefrontOrigins].map((u) => new URL(u).origin)
}
