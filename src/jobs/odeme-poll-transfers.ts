import { configManager } from "@medusajs/framework/config"
import type { Logger, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { POLL_EVENT } from "../lib/notification-event"
import { ODEME_MODULE } from "../modules/odeme"
import { errorText } from "../lib/error-text"

/**
 * Offers of a pass per tick. Medusa runs a scheduled job on one instance
 * only, so the job does not poll: it emits this many POLL_EVENTs and each
 * worker that takes one runs a pass (src/subscribers/odeme-poll-transfers.ts),
 * at most one per process; the offers beyond the number of workers are
 * no-ops. Up to this many workers share a pass.
 */
const PASS_OFFERS = 8

export default async function odemePollTransfersJob(container: MedusaContainer) {
  // Offered also with transfer.pollerEnabled off: a pass retries the inbox too, which no option turns off.
  try {
    await container.resolve(Modules.EVENT_BUS).emit(Array.from({ length: PASS_OFFERS }, (_, offer) => ({ name: POLL_EVENT, data: { offer } })))
  } catch (err) {
    // Nothing is lost: due rows stay due for the next tick.
    container.resolve<Logger>(ContainerRegistrationKeys.LOGGER).warn(`medusa-payment-odeme poller: could not offer a pass (${errorText(err)})`)
  }
}

/**
 * The cron, from the plugin's options as Medusa hands them to the plugin's
 * module: Medusa merges a plugin's modules, with the plugin's options, into
 * `modules` before it loads jobs.
 */
function schedule(): string {
  const modules = (configManager.config?.modules ?? {}) as Record<string, { options?: { transfer?: { pollSchedule?: unknown } } } | boolean>
  const own = modules[ODEME_MODULE]
  const cron = typeof own === "object" ? own.options?.transfer?.pollSchedule : undefined
  return typeof cron === "string" && cron ? cron : "* * * * *"
}

export const config = {
  name: "odeme-poll-transfers",
  schedule: schedule(),
}
