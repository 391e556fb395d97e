import { OdemeClient } from "../client"
import { BankDirectory } from "./bank-directory"
import type { OdemeOptions } from "./options"

type Logger = { debug(m: string): void; warn(m: string): void; error(m: string): void }

/**
 * The configured client and bank list for one container. The providers
 * (payment module's container) and the plugin module each hold one; this is
 * where options become client settings.
 */
export function createServiceClient(options: OdemeOptions, logger?: Logger): { client: OdemeClient; banks: BankDirectory } {
  const client = new OdemeClient({
    baseUrl: options.baseUrl,
    apiKey: options.apiKey,
    apiId: options.apiId,
    timeoutMs: options.httpTimeoutMs,
    retries: options.httpRetries,
    logger: logger && { debug: (m) => logger.debug(m), warn: (m) => logger.warn(m), error: (m) => logger.error(m) },
  })
  const banks = new BankDirectory(client, {
    bankGroupId: options.transfer.bankGroupId,
    ttlSeconds: options.transfer.bankCacheSeconds,
  })
  return { client, banks }
}
