import type { FaultRegistry } from "./faults"
import type { EmulatorState } from "./state"
import type { WebhookDispatcher } from "./webhooks"

export interface EmulatorContext {
  state: EmulatorState
  webhooks: WebhookDispatcher
  faults: FaultRegistry
  log: (line: string) => void
}
