import { defineMiddlewares } from "@medusajs/framework/http"
import { attachClientIp } from "./utils/client-ip"

export default defineMiddlewares({
  routes: [
    {
      matcher: "/store/payment-collections/:id/payment-sessions",
      method: ["POST"],
      middlewares: [attachClientIp],
    },
  ],
})
