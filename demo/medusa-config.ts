/**
 * The demo store: a Medusa app that uses medusa-payment-odeme exactly as a
 * store installed from npm would. `scripts/demo.js` links
 * demo/node_modules/medusa-payment-odeme to the repository root (whose
 * package.json `exports` point into the built `.medusa/server`); every other
 * package resolves from the repository's node_modules.
 */
import path from "node:path"
import { defineConfig, loadEnv } from "@medusajs/framework/utils"

loadEnv(process.env.NODE_ENV || "development", process.cwd())

const backendUrl = process.env.DEMO_BACKEND_URL || "http://localhost:9000"
const storefrontUrl = process.env.DEMO_STOREFRONT_URL || "http://localhost:8000"

/** The same options object goes to the plugin (its module) and to the payment providers. */
const odeme = {
  apiKey: process.env.ODEME_API_KEY || "sandbox_test_key_0001",
  apiId: process.env.ODEME_API_ID || 1001,
  baseUrl: process.env.ODEME_BASE_URL || "http://127.0.0.1:4010",
  mode: (process.env.ODEME_MODE as "sandbox" | "live" | undefined) || "sandbox",
  backendUrl,
  storefrontUrl,
  // Another storefront beside the demo's own, e.g. the dtc-starter example (comma-separated origins).
  storefrontOrigins: (process.env.DEMO_STOREFRONT_ORIGINS || "").split(",").filter(Boolean),
  // The demo shows a bank account list that may change while you play with the emulator.
  transfer: { bankCacheSeconds: 30 },
}

export default defineConfig({
  projectConfig: {
    databaseUrl: process.env.DATABASE_URL,
    http: {
      storeCors: process.env.STORE_CORS || storefrontUrl,
      adminCors: process.env.ADMIN_CORS || backendUrl,
      authCors: process.env.AUTH_CORS || `${backendUrl},${storefrontUrl}`,
      jwtSecret: process.env.JWT_SECRET || "odeme-demo-jwt-secret",
      cookieSecret: process.env.COOKIE_SECRET || "odeme-demo-cookie-secret",
    },
  },
  admin: {
    backendUrl,
    // The dashboard and its fonts resolve from the repository's node_modules, outside demo/:
    // let the Admin's Vite dev server read files there (it serves only the app folder by default).
    vite: (config) => ({
      ...config,
      server: {
        ...config.server,
        fs: { ...config.server?.fs, allow: [...(config.server?.fs?.allow ?? []), path.resolve(process.cwd(), "..")] },
      },
    }),
  },
  plugins: [{ resolve: "medusa-payment-odeme", options: odeme }],
  modules: [
    {
      resolve: "@medusajs/medusa/payment",
      options: {
        providers: [{ resolve: "medusa-payment-odeme/providers/odeme", id: "odeme", options: odeme }],
      },
    },
  ],
})
