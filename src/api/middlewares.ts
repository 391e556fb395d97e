import { defineMiddlewares, validateAndTransformBody, validateAndTransformQuery } from "@medusajs/framework/http"
import {
  AdminResolveOdemePayment,
  AdminGetOdemeAttentionParams,
  AdminGetOdemeNotificationsParams,
  AdminGetOdemeTransfersParams,
} from "./admin/odeme/validators"
import { OdemeReturnQuery } from "./odeme/validators"
import { StoreAuthorizeOdemeBalance, StoreCreateOdemeCheckoutForm, StoreGetOdemePaymentSessionParams } from "./store/odeme/validators"
import { odemeAdminSessionInput, odemeSessionInput } from "./utils/client-ip"
import { knownQueryOnly } from "./utils/known-query"
import { limitPerAddress } from "./utils/rate-limit"

/**
 * Every route's input is checked here, before the route runs (path
 * parameters excepted: see `utils/path-params.ts`). The webhook is the one
 * route that validates in its own intake.
 */
export default defineMiddlewares({
  routes: [
    {
      matcher: "/store/payment-collections/:id/payment-sessions",
      method: ["POST"],
      middlewares: [odemeSessionInput],
    },
    {
      // Medusa's admin route that does the same (Medusa 2.14.2+).
      matcher: "/admin/payment-collections/:id/payment-sessions",
      method: ["POST"],
      middlewares: [odemeAdminSessionInput],
    },
    {
      // The route reads its own body (src/api/utils/raw-body.ts): JSON or form fields under any content type.
      matcher: "/odeme/webhook",
      method: ["POST"],
      bodyParser: false,
      middlewares: [limitPerAddress],
    },
    ...["/odeme/return/:session_id/:outcome", "/odeme/return/:session_id/:outcome/:proof"].map((matcher) => ({
      matcher,
      method: ["GET" as const],
      middlewares: [knownQueryOnly(OdemeReturnQuery), validateAndTransformQuery(OdemeReturnQuery, {})],
    })),
    {
      matcher: "/store/odeme/payment-sessions/:id",
      method: ["GET"],
      middlewares: [knownQueryOnly(StoreGetOdemePaymentSessionParams), validateAndTransformQuery(StoreGetOdemePaymentSessionParams, {})],
    },
    {
      matcher: "/store/odeme/payment-sessions/:id/form",
      method: ["POST"],
      middlewares: [validateAndTransformBody(StoreCreateOdemeCheckoutForm)],
    },
    // Medusa's RBAC (when on): reading the plugin's records is reading payments; acting on them changes payments,
    // and acknowledging a refund says money was paid back.
    { matcher: "/admin/odeme/*", method: ["GET"], policies: [{ resource: "payment", operation: "read" }] },
    { matcher: "/admin/odeme/payments/*", method: ["POST"], policies: [{ resource: "payment", operation: "update" }] },
    { matcher: "/admin/odeme/charges/*", method: ["POST"], policies: [{ resource: "payment", operation: "update" }] },
    { matcher: "/admin/odeme/notifications/*", method: ["POST"], policies: [{ resource: "payment", operation: "update" }] },
    { matcher: "/admin/odeme/refunds/*", method: ["POST"], policies: [{ resource: "refund", operation: "update" }] },
    { matcher: "/admin/odeme/connection", method: ["POST"], policies: [{ resource: "payment", operation: "read" }] },
    {
      matcher: "/admin/odeme/payments/:session_id/resolve",
      method: ["POST"],
      middlewares: [validateAndTransformBody(AdminResolveOdemePayment)],
    },
    {
      matcher: "/store/odeme/payment-sessions/:id/authorize",
      method: ["POST"],
      middlewares: [validateAndTransformBody(StoreAuthorizeOdemeBalance)],
    },
    {
      matcher: "/admin/odeme/attention",
      method: ["GET"],
      middlewares: [validateAndTransformQuery(AdminGetOdemeAttentionParams, {})],
    },
    {
      matcher: "/admin/odeme/notifications",
      method: ["GET"],
      middlewares: [validateAndTransformQuery(AdminGetOdemeNotificationsParams, {})],
    },
    {
      matcher: "/admin/odeme/transfers",
      method: ["GET"],
      middlewares: [validateAndTransformQuery(AdminGetOdemeTransfersParams, {})],
    },
  ],
})
