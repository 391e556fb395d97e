import { zodValidator } from "@medusajs/framework"
import type { MedusaRequest } from "@medusajs/framework/http"
import type { z } from "@medusajs/framework/zod"

/**
 * A route's path parameters checked by the same validator Medusa runs on
 * bodies and queries (same 400, same message). Medusa's middlewares have no
 * step for path parameters, and Express sets `req.params` afresh for the
 * route, so the route asks for them itself.
 */
export async function validatedParams<T extends z.ZodType>(req: MedusaRequest, schema: T): Promise<z.output<T>> {
  return (await zodValidator(schema, req.params)) as z.output<T>
}
