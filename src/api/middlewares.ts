import { defineMiddlewares } from "@medusajs/framework/http"
import { attachClientIp } from "./utils/client-ip"
import { limitPerAddress } from "./utils/rate-limit"

export default defineMiddlewares({
  routes: [
    {
      matcher: "/store/payment-collections/:id/payment-sessions",
      method: ["POST"],
      middlewares: [attachClientIp],
    },
    {
      // The raw body is kept with the notification; a notification is small.
      matcher: "/odeme/webhook",
      method: ["POST"],
      bodyParser: { preserveRawBody: true, sizeLimit: "64kb" },
      middlewares: [limitPerAddress],
    },
  ],
})
