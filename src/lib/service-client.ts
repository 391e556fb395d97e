import { DEFAULT_CONNECTIONS, OdemeClient } from "../client"
import { BankDirectory } from "./bank-directory"
import type { OdemeOptions } from "./options"

type Logger = { shouldLog?(level: string): boolean; debug(m: string): void; warn(m: string): void; error(m: string): void }

/** Connections kept beside the poller's for verify, checkout and admin calls. */
const CONNECTIONS_BESIDE_POLLER = 8

/**
 * One connection per concurrent poller check plus room for the rest, never
 * fewer than the client's default: a poller bounded by the pool would make
 * its concurrency setting a lie.
 */
export function serviceConnections(options: Pick<OdemeOptions, "transfer">): number {
  return Math.max(DEFAULT_CONNECTIONS, options.transfer.pollConcurrency + CONNECTIONS_BESIDE_POLLER)
}

/**
 * The configured client and bank list. The plugin module builds the one pair
 * of the process (the providers, routes and poller use it); this is where
 * options become client settings.
 */
export function createServiceClient(options: OdemeOptions, logger?: Logger): { client: OdemeClient; banks: BankDirectory } {
  const client = new OdemeClient({
    baseUrl: options.baseUrl,
    apiKey: options.apiKey,
    apiId: options.apiId,
    timeoutMs: options.httpTimeoutMs,
    retries: options.httpRetries,
    connections: serviceConnections(options),
    logger: logger && {
      shouldLog: (level) => logger.shouldLog?.(level) ?? true,
      debug: (m) => logger.debug(m),
      warn: (m) => logger.warn(m),
      error: (m) => logger.error(m),
    },
  })
  const banks = new BankDirectory(client, {
    bankGroupId: options.transfer.bankGroupId,
    ttlSeconds: options.transfer.bankCacheSeconds,
  })
  return { client, banks }
}
