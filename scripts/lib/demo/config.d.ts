import type { DemoPort } from "./args"

export interface DemoConfigPort extends DemoPort {
  port: number
}
export interface DemoConfig {
  help: false
  ci: boolean
  check: boolean
  rebuild: boolean
  migrate: boolean
  verbose: boolean
  useEmulator: boolean
  demoDir: string
  storefrontDir: string
  data: string
  logs: string
  seedMarker: string
  keyFile: string
  dbName: string
  ownDb: boolean
  /** The ports this run listens on, each with the variable that moves it. */
  ports: DemoConfigPort[]
  medusaPort: number
  storefrontPort: number
  emulatorPort: number
  backendUrl: string
  storefrontUrl: string
  emulatorUrl: string
  admin: { email: string; password: string }
  wantedProviders: string[]
}
export function demoConfig(argv?: string[], env?: NodeJS.ProcessEnv): DemoConfig | { help: true }
