import { z } from "@medusajs/framework/zod"
import { NOTIFICATION_STATES } from "../../../modules/odeme/models/states"

/**
 * What the admin routes accept, checked by Medusa's `validateAndTransformQuery`
 * (see `src/api/middlewares.ts`) and, for path parameters, by
 * `validatedParams` in the route. Medusa writes the 400's message.
 */

/** A page number of the query string: absent or empty means the default. */
const count = (fallback: number, min: number, max: number) =>
  z.preprocess((v) => (v === "" ? undefined : v), z.coerce.number().int().min(min).max(max).default(fallback))

/** An id the plugin or Medusa generated; anything else could never match a row. */
const entityId = (name: string) =>
  z
    .string()
    .trim()
    .min(1)
    .max(100)
    .regex(/^[A-Za-z0-9_-]+$/, `${name} may only contain letters, digits, "_" and "-"`)

export const AdminOdemeOrderParams = z.object({ order_id: entityId("order_id") })
export const AdminOdemePaymentParams = z.object({ session_id: entityId("session_id") })
export const AdminOdemeNotificationParams = z.object({ id: entityId("id") })
export const AdminOdemeChargeParams = z.object({
  id: z.string().regex(/^odchg_[A-Za-z0-9]{10,60}$/, "id must be a charge id (odchg_…)."),
})

export const AdminOdemeRefundParams = z.object({
  id: z.string().regex(/^odref_[A-Za-z0-9]{10,60}$/, "id must be a refund id (odref_…)."),
})

/**
 * The shortest note "Mark resolved" accepts. The route refuses a shorter one
 * (code `odeme.note_too_short`, which the Admin translates); the Admin checks
 * the same length before sending (src/admin/components/attention-items.tsx).
 */
export const RESOLVE_NOTE_MIN_LENGTH = 3

/** What a person did about a review item, kept in the payment's timeline. */
export const AdminResolveOdemePayment = z.object({
  note: z.string().trim().max(1000),
})
export type AdminResolveOdemePaymentType = z.infer<typeof AdminResolveOdemePayment>

export const AdminGetOdemeTransfersParams = z.object({
  limit: count(20, 1, 100),
  offset: count(0, 0, 1_000_000),
})
export type AdminGetOdemeTransfersParamsType = z.infer<typeof AdminGetOdemeTransfersParams>

export const AdminGetOdemeNotificationsParams = AdminGetOdemeTransfersParams.extend({
  state: z.enum(NOTIFICATION_STATES).default("dead"),
  session_id: entityId("session_id").optional(),
})
export type AdminGetOdemeNotificationsParamsType = z.infer<typeof AdminGetOdemeNotificationsParams>

export const AdminGetOdemeAttentionParams = z.object({
  limit: count(50, 1, 200),
  offset: count(0, 0, 1_000_000),
})
export type AdminGetOdemeAttentionParamsType = z.infer<typeof AdminGetOdemeAttentionParams>
