export interface DemoPort {
  key: "medusaPort" | "storefrontPort" | "emulatorPort"
  variable: string
  fallback: number
  what: string
}
export const DEMO_PORTS: DemoPort[]
export class DemoUsageError extends Error {}
export interface DemoArgs {
  help: boolean
  ci?: boolean
  check?: boolean
  rebuild?: boolean
  migrate?: boolean
  verbose?: boolean
  dataDir?: string
  dbName?: string
}
export function parseDemoArgs(argv: string[]): DemoArgs
export function demoUsage(): string
