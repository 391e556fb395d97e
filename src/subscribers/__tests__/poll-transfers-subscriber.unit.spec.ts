import { createMedusaContainer } from "@medusajs/framework/utils"
import { asValue } from "@medusajs/framework/awilix"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import { ODEME_MODULE } from "../../modules/odeme"
import odemePollTransfersHandler from "../odeme-poll-transfers"

/**
 * A process's container with only the plugin's options: a pass that starts finds no database behind the
 * module, fails, and logs that (rows stay due), which is how the test sees that it started.
 */
function processWith(pollerEnabled: boolean) {
  const claimDueTransfers = jest.fn(async () => [])
  // The inbox's due rows: none, so the pass ends at the reconciler, which fails without a database and logs it.
  const dueNotificationIds = jest.fn(async () => [])
  const module = {
    odemeOptions: { transfer: { pollerEnabled, pollMaxPerRun: 10, pollConcurrency: 1 }, notifications: {} },
    claimDueTransfers,
    dueNotificationIds,
    notePollerPass: jest.fn(async () => undefined),
  }
  const container = createMedusaContainer() as unknown as MedusaContainer & { register: (k: string, v: unknown) => void }
  const logged: string[] = []
  const log = (m: string) => void logged.push(m)
  container.register(ODEME_MODULE, asValue(module))
  container.register(ContainerRegistrationKeys.LOGGER, asValue({ info: log, warn: log, error: log, debug: log }))
  return { container, logged, claimDueTransfers, dueNotificationIds, notePollerPass: module.notePollerPass }
}

describe("the poller's pass offered by the event bus", () => {
  it("is run without its transfer checks by a process with transfer.pollerEnabled: false: the inbox's retries still run", async () => {
    const off = processWith(false)
    await odemePollTransfersHandler({ event: { name: "odeme.poll", data: { offer: 0 } }, container: off.container } as never)
    await new Promise((r) => setTimeout(r, 50))
    expect(off.logged.join("\n")).toMatch(/medusa-payment-odeme poller/)
    expect(off.claimDueTransfers).not.toHaveBeenCalled()
    expect(off.dueNotificationIds).toHaveBeenCalled()
    // A pass says so whatever the option: "needs attention" reads it (poller_not_running).
    expect(off.notePollerPass).toHaveBeenCalledTimes(1)
  })

  it("is run with its transfer checks by a process that polls", async () => {
    const on = processWith(true)
    await odemePollTransfersHandler({ event: { name: "odeme.poll", data: { offer: 0 } }, container: on.container } as never)
    await new Promise((r) => setTimeout(r, 50))
    expect(on.logged.join("\n")).toMatch(/medusa-payment-odeme poller/)
    expect(on.claimDueTransfers).toHaveBeenCalled()
    expect(on.dueNotificationIds).toHaveBeenCalled()
  })
})
