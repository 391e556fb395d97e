import { MedusaService } from "@medusajs/framework/utils"
import type { OdemeClient } from "../../client"
import type { BankDirectory } from "../../lib/bank-directory"
import { parseOdemeOptions, type OdemeOptions } from "../../lib/options"
import { createServiceClient } from "../../lib/service-client"
import OdemeNotification from "./models/odeme-notification"
import OdemePayment from "./models/odeme-payment"

type Logger = { debug(m: string): void; warn(m: string): void; error(m: string): void }

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
    const { client, banks } = createServiceClient(this.odemeOptions, container.logger as Logger | undefined)
    this.client = client
    this.banks = banks
  }
}

export default OdemeModuleService
