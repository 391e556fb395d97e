import type { MedusaNextFunction, MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import type { z } from "@medusajs/framework/zod"

/**
 * For routes others call with addresses they build (the service's redirect,
 * a storefront's status poll): parameters the schema does not name are
 * ignored, as they always were, rather than refused. It runs before Medusa's
 * `validateAndTransformQuery`, which makes every object schema strict and
 * answers 500 for a parameter name with two dots (`a.b.c`).
 */
export function knownQueryOnly(schema: z.ZodObject) {
  const known = Object.keys(schema.shape)
  return function keepKnownQuery(req: MedusaRequest, _res: MedusaResponse, next: MedusaNextFunction) {
    const query = req.query as Record<string, unknown>
    req.query = Object.fromEntries(known.filter((k) => query[k] !== undefined).map((k) => [k, query[k]])) as MedusaRequest["query"]
    next()
  }
}
