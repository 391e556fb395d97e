import { configManager } from "@medusajs/framework/config"
import type { Logger, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { pollTransfers } from "../lib/poll-transfers"
import { ODEME_MODULE } from "../modules/odeme"
import type OdemeModuleService from "../modules/odeme/service"

/**
 * Polls pending transfers (spec §4.6) and retries inbox notifications whose
 * verification failed. Runs on the worker when Medusa runs server + worker;
 * the lock makes a run happen once across instances, and the claim in the
 * database makes two runs never check the same transfer.
 */
export default async function odemePollTransfersJob(container: MedusaContainer) {
  const logger = container.resolve<Logger>(ContainerRegistrationKeys.LOGGER)
  if (!container.resolve<OdemeModuleService>(ODEME_MODULE).odemeOptions.transfer.pollerEnabled) return
  const locking = container.resolve(Modules.LOCKING)
  try {
    await locking.execute(
      "odeme:poller",
      async () => {
        const s = await pollTransfers(container)
        if (s.checked || s.notifications) {
          logger.info(
            `medusa-payment-odeme poller: checked ${s.checked} (paid ${s.paid}, failed ${s.failed}, expired ${s.expired}, errors ${s.errors}), notifications ${s.notifications}${s.stopped_early ? ", stopped at its bound" : ""}`
          )
        }
      },
      { timeout: 1 }
    )
  } catch (err) {
    logger.debug(`medusa-payment-odeme poller: run skipped (${err instanceof Error ? err.message : String(err)})`)
  }
}

/** The schedule comes from the plugin options (`transfer.pollSchedule`), read when jobs load. */
function scheduleFromOptions(): string {
  try {
    const plugins = (configManager.config?.plugins ?? []) as Array<string | { resolve: string; options?: any }>
    const own = plugins.find((p) => typeof p !== "string" && /medusa-payment-odeme/.test(p.resolve)) as { options?: any } | undefined
    const fromPlugin = own?.options?.transfer?.pollSchedule
    const fromModule = (configManager.config?.modules as any)?.odeme?.options?.transfer?.pollSchedule
    return fromPlugin || fromModule || "* * * * *"
  } catch {
    return "* * * * *"
  }
}

export const config = {
  name: "odeme-poll-transfers",
  schedule: scheduleFromOptions(),
}
