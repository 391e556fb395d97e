import type { DemoConfig, DemoConfigPort } from "./config"

export function portTakenMessage(port: Pick<DemoConfigPort, "port" | "variable" | "what">, instead?: number): string
export function takenDemoPorts(cfg: Pick<DemoConfig, "ports">, inUse?: (port: number) => Promise<boolean>): Promise<string[]>
export function assertDemoPortFree(cfg: Pick<DemoConfig, "ports">, key: DemoConfigPort["key"]): Promise<void>
