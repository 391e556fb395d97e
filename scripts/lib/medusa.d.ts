import type { Service } from "./processes"

export function medusaArgs(args: string[], cli?: string): string[]
export function startMedusaProcess(opts: {
  name?: string
  command: "develop" | "start"
  cwd: string
  env: NodeJS.ProcessEnv
  url: string
  logFile: string
  timeoutMs?: number
  echo?: boolean
  cli?: string
}): Promise<Service>
