import Medusa from "@medusajs/js-sdk"

// Defined by the Admin's build (Medusa's Vite config) as the backend's URL.
declare const __BACKEND_URL__: string | undefined

/** The plugin's js-sdk instance, as Medusa's docs set one up for plugin admin code (session auth). */
export const sdk = new Medusa({
  baseUrl: (typeof __BACKEND_URL__ !== "undefined" && __BACKEND_URL__) || "/",
  auth: { type: "session" },
})
