import { createHash } from "node:crypto"
import { parseOdemeOptions, type OdemeOptions } from "./options"

/*
 * The plugin (its module) and the payment providers are two registrations in
 * medusa-config and each receives its own options. They must agree: the
 * module's routes, job and inbox work on payments the providers created.
 *
 * Both always run in the same process (Medusa loads every module in every
 * process, server or worker), so they compare through a registry on
 * globalThis: no table, connection or migration is needed, and the check
 * works before `db:migrate`. Medusa runs every module's loaders (the
 * providers' `validateOptions`) before it constructs the module services, so
 * the module, constructed at boot, sees the providers' options and a
 * mismatch stops the boot. A provider is constructed on first use; it then
 * checks that the plugin's module is there at all (its tables exist only
 * with the plugin) and agrees with it.
 */

/** Stable fingerprint of parsed options: one hash per option, and one of them all. */
export interface OptionsFingerprint {
  hash: string
  fields: Record<string, string>
}

export function optionsFingerprint(options: OdemeOptions): OptionsFingerprint {
  const fields: Record<string, string> = {}
  const visit = (value: unknown, path: string) => {
    if (value && typeof value === "object" && !Array.isArray(value) && Object.keys(value).length > 0) {
      for (const key of Object.keys(value).sort()) visit((value as Record<string, unknown>)[key], path ? `${path}.${key}` : key)
      return
    }
    fields[path] = sha256(JSON.stringify(value ?? null)).slice(0, 16)
  }
  visit(options, "")
  const sorted = Object.keys(fields)
    .sort()
    .map((k) => [k, fields[k]])
  return { hash: sha256(JSON.stringify(sorted)), fields }
}

function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex")
}

interface Registrations {
  plugin?: OptionsFingerprint
  /** Providers' fingerprints seen at boot since the module last registered. */
  providers: OptionsFingerprint[]
}

const REGISTRY = Symbol.for("medusa-payment-odeme.registrations")

function registry(): Registrations {
  const g = globalThis as unknown as Record<symbol, Registrations | undefined>
  return (g[REGISTRY] ??= { providers: [] })
}

/** Names of the options that differ (never their values: one of them is the API key). */
export function differingOptions(a: OptionsFingerprint, b: OptionsFingerprint): string[] {
  const keys = new Set([...Object.keys(a.fields), ...Object.keys(b.fields)])
  return [...keys].filter((k) => a.fields[k] !== b.fields[k]).sort()
}

export class OdemeRegistrationError extends Error {
  constructor(message: string) {
    super(`medusa-payment-odeme: ${message}`)
    this.name = "OdemeRegistrationError"
  }
}

const SAME_OPTIONS_ADVICE =
  'Give both the same options object, e.g. const odeme = odemeConfig({ ... }) from "medusa-payment-odeme/config" with plugins: [odeme.plugin] and the payment module\'s providers: [odeme.paymentProvider].'

function mismatch(plugin: OptionsFingerprint, provider: OptionsFingerprint): OdemeRegistrationError {
  return new OdemeRegistrationError(
    `the plugin and the payment provider were registered with different options (${differingOptions(plugin, provider).join(", ")}). ${SAME_OPTIONS_ADVICE}`
  )
}

/**
 * For the plugin's module service (constructed at boot): parses its options,
 * records them for the providers and refuses providers registered with others.
 */
export function registerPluginOptions(input: unknown): OdemeOptions {
  const options = parseOdemeOptions(input)
  const fingerprint = optionsFingerprint(options)
  const reg = registry()
  const seen = reg.providers
  reg.plugin = fingerprint
  reg.providers = []
  const other = seen.find((p) => p.hash !== fingerprint.hash)
  if (other) throw mismatch(fingerprint, other)
  return options
}

/** For the providers' `validateOptions` (run at boot, before module services exist). */
export function noteProviderOptions(input: unknown): OdemeOptions {
  const options = parseOdemeOptions(input)
  registry().providers.push(optionsFingerprint(options))
  return options
}

/**
 * For a provider's constructor (first use): the plugin's module must be
 * registered in this process, with the same options.
 */
export function assertPluginRegistered(options: OdemeOptions): void {
  const plugin = registry().plugin
  if (!plugin) {
    throw new OdemeRegistrationError(
      'the payment provider is registered but the plugin is not, so the tables it keeps payments in do not exist. Add to medusa-config: plugins: [{ resolve: "medusa-payment-odeme", options }] with the same options as the provider, then run npx medusa db:migrate. ' +
        SAME_OPTIONS_ADVICE
    )
  }
  const mine = optionsFingerprint(options)
  if (mine.hash !== plugin.hash) throw mismatch(plugin, mine)
}

/** Forgets every registration (tests that boot several apps in one process). */
export function resetRegistrations(): void {
  const g = globalThis as unknown as Record<symbol, Registrations | undefined>
  delete g[REGISTRY]
}
