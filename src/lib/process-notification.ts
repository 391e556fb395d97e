import type { MedusaContainer } from "@medusajs/framework/types"
import { processNotification, type ProcessResult } from "../workflows/process-notification"
import { odemeModule } from "./odeme-module"

// The path itself is the workflow in src/workflows/process-notification.ts; the per-process queue is in
// processing-queue.ts. Both are re-exported here for the callers that name this file.
export { backoffMs, processNotification, processNotificationWorkflow, type ProcessResult } from "../workflows/process-notification"
export { ingestQuiet, noteIngest, processQueued } from "./processing-queue"

/** Processes inbox rows that are due (first attempts left by a full queue or a crash, and retries). Used by the poller. */
export async function processDueNotifications(container: MedusaContainer, limit = 50): Promise<ProcessResult[]> {
  const ids = await odemeModule(container).dueNotificationIds(limit)
  const results: ProcessResult[] = []
  for (const id of ids) results.push(await processNotification(container, id))
  return results
}
