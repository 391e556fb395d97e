import type { SubscriberArgs, SubscriberConfig } from "@medusajs/framework"
import type { Logger, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { POLL_EVENT } from "../lib/notification-event"
import { pollTransfers } from "../workflows/poller/poll-transfers"
import { odemeModule } from "../modules/odeme/resolve"
import { errorText } from "../lib/error-text"

/**
 * Takes an offer of a poller pass (emitted by src/jobs/odeme-poll-transfers.ts)
 * and runs it unless this process already runs one. Passes on several workers
 * share the due rows page by page: the claim's lease gives each row to one.
 * A process with `transfer.pollerEnabled: false` runs the pass without its
 * transfer checks (pollTransfers): the inbox's retries and the reconciler run
 * whatever the option, or a notification whose verify failed once would stay
 * due for good in a store that turned polling off everywhere.
 */
export default async function odemePollTransfersHandler({ container }: SubscriberArgs<{ offer?: number }>) {
  if (passRunning) return
  passRunning = true
  const pass = runPass(container).finally(() => (passRunning = false))
  // Redis' event bus gives a worker one event at a time: holding this one for a moment lets the
  // other offers reach other workers; letting go then keeps notifications flowing during a long pass.
  await Promise.race([pass, new Promise((r) => setTimeout(r, HANDOFF_MS).unref())])
}

let passRunning = false
const HANDOFF_MS = 1_000

/** Never rejects: a pass that cannot run leaves the rows due for the next tick. */
async function runPass(container: MedusaContainer): Promise<void> {
  const logger = container.resolve<Logger>(ContainerRegistrationKeys.LOGGER)
  try {
    const odeme = odemeModule(container)
    // Seen by Settings → Odeme and "needs attention" (poller_not_running), which no worker has to run for.
    await odeme.notePollerPass()
    const s = await pollTransfers(container, { transfers: odeme.odemeOptions.transfer.pollerEnabled })
    if (s.checked || s.notifications) {
      logger.info(
        `medusa-payment-odeme poller: checked ${s.checked} (paid ${s.paid}, failed ${s.failed}, expired ${s.expired}, errors ${s.errors}), notifications ${s.notifications}${s.stopped_early ? ", stopped at its bound" : ""}`
      )
    }
  } catch (err) {
    logger.warn(`medusa-payment-odeme poller: pass failed, due rows stay due (${errorText(err)})`)
  }
}

export const config: SubscriberConfig = {
  event: POLL_EVENT,
}
