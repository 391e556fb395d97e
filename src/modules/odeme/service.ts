import { MedusaService } from "@medusajs/framework/utils"
import { OdemeClient } from "../../client"
import { BankDirectory } from "../../lib/bank-directory"
import { parseOdemeOptions, type OdemeOptions } from "../../lib/options"
import OdemeNotification from "./models/odeme-notification"
import OdemePayment from "./models/odeme-payment"

type Logger = { debug(m: string): void; info(m: string): void; warn(m: string): void; error(m: string): void }

/**
 * The plugin's module: its tables (payments, notification inbox) plus the
 * configured service client, for the plugin's routes, subscribers and jobs.
 * It receives the plugin options (`plugins: [{ resolve, options }]`), which
 * must be the same object given to the payment provider.
 */
class OdemeModuleService extends MedusaService({
  OdemePayment,
  OdemeNotification,
}) {
  readonly odemeOptions: OdemeOptions
  readonly client: OdemeClient
  readonly banks: BankDirectory

  constructor(container: Record<string, unknown>, options: Record<string, unknown>) {
    // eslint-disable-next-line prefer-rest-params
    super(...(arguments as unknown as [Record<string, unknown>]))
    this.odemeOptions = parseOdemeOptions(options)
    const logger = container.logger as Logger | undefined
    this.client = new OdemeClient({
      baseUrl: this.odemeOptions.baseUrl,
      apiKey: this.odemeOptions.apiKey,
      apiId: this.odemeOptions.apiId,
      timeoutMs: this.odemeOptions.httpTimeoutMs,
      retries: this.odemeOptions.httpRetries,
      logger: logger && { debug: (m) => logger.debug(m), warn: (m) => logger.warn(m), error: (m) => logger.error(m) },
    })
    this.banks = new BankDirectory(this.client, {
      bankGroupId: this.odemeOptions.transfer.bankGroupId,
      ttlSeconds: this.odemeOptions.transfer.bankCacheSeconds,
    })
  }
}

export default OdemeModuleService
