import { asFunction } from "@medusajs/framework/awilix"
import type { LoaderOptions } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import type { OdemeClient } from "../../../client"
import type { BankDirectory } from "../bank-directory"
import { parseOdemeOptions } from "../../../lib/options"
import { createServiceClient } from "../service-client"

/** The registration in the module's container the service reads its client and bank list from. */
export const SERVICE_CLIENT = "odemeServiceClient"

export type ServiceClient = { client: OdemeClient; banks: BankDirectory }

type Logger = { debug(m: string): void; warn(m: string): void; error(m: string): void }

/**
 * The module's loader: registers the one service client and bank list of the process. They are built when the
 * service first resolves them, in its constructor after it has compared the options with the providers', so a
 * bad option stays that one boot error, and a process that only runs the loaders (migrations) opens no client.
 */
export default async function serviceClientLoader({ container, options }: LoaderOptions): Promise<void> {
  container.register(
    SERVICE_CLIENT,
    asFunction((): ServiceClient =>
      createServiceClient(
        parseOdemeOptions(options),
        container.resolve<Logger | undefined>(ContainerRegistrationKeys.LOGGER, { allowUnregistered: true })
      )
    ).singleton()
  )
}
