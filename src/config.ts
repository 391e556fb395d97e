import type { OdemeOptionsInput } from "./lib/options"

/**
 * `medusa-payment-odeme/config`: both medusa-config entries from one options
 * object, so the plugin and the payment providers cannot drift apart.
 *
 * Loaded by medusa-config, so it imports nothing at runtime: validation
 * happens when Medusa boots (the plugin checks every option and that both
 * registrations agree), which keeps `medusa build` working on a machine
 * without the secrets.
 */

type Env = string | undefined

/** The options, with the required values typed loosely enough to come straight from `process.env`. */
export type OdemeConfigOptions = Omit<OdemeOptionsInput, "apiKey" | "apiId" | "baseUrl" | "backendUrl" | "storefrontUrl" | "mode"> & {
  apiKey: Env
  apiId: Env | number
  baseUrl: Env
  backendUrl: Env
  storefrontUrl: Env
  mode?: "sandbox" | "live" | (string & {}) | undefined
}

export interface OdemeConfigEntries<O> {
  /** For `plugins: [...]`. */
  plugin: { resolve: "medusa-payment-odeme"; options: O }
  /** For the payment module's `options.providers: [...]`. */
  paymentProvider: { resolve: "medusa-payment-odeme/providers/odeme"; id: string; options: O }
}

export function odemeConfig<O extends OdemeConfigOptions>(options: O, config: { id?: string } = {}): OdemeConfigEntries<O> {
  return {
    plugin: { resolve: "medusa-payment-odeme", options },
    paymentProvider: { resolve: "medusa-payment-odeme/providers/odeme", id: config.id ?? "odeme", options },
  }
}

export default odemeConfig
