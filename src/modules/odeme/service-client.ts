import { OdemeClient } from "../../client"
import { BankDirectory } from "./bank-directory"
import type { OdemeOptions } from "../../lib/options"
import { serviceConnections } from "../../lib/service-connections"

type Logger = { shouldLog?(level: string): boolean; debug(m: string): void; warn(m: string): void; error(m: string): void }

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
