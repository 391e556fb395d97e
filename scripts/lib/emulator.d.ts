import type { Service } from "./processes"

export interface StartedEmulator {
  url: string
  child: Service
  control<T = any>(method: "GET" | "POST" | "DELETE", p: string, body?: unknown): Promise<T>
  stop(): Promise<void>
}
export function startEmulator(opts: {
  port?: number
  args?: string[]
  env?: NodeJS.ProcessEnv
  logFile: string
  timeoutMs?: number
  detached?: boolean
}): Promise<StartedEmulator>
