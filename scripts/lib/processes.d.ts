import type { ChildProcess } from "node:child_process"

export interface Service extends ChildProcess {
  name: string
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
  logFile: string
  /** Everything the process printed so far (stdout + stderr, colours removed). */
  output(): string
  alive(): boolean
  /** The first log line matching `re`, looking at what is already printed too, from character `since` on. */
  waitForLog(re: RegExp, timeoutMs?: number, since?: number): Promise<string>
  stop(graceMs?: number): Promise<void>
}
export interface SpawnOptions {
  cwd: string
  env?: NodeJS.ProcessEnv
  logFile: string
}
export function run(name: string, cmd: string, args: string[], opts: SpawnOptions): Promise<string>
export function startService(name: string, cmd: string, args: string[], opts: SpawnOptions & { echo?: boolean; detached?: boolean }): Service
export function stopService(child: ChildProcess | null | undefined, graceMs?: number): Promise<void>
export function stopAll(graceMs?: number): Promise<void>
export function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void
export function stripAnsi(s: string): string
export function tailText(text: string, lines?: number): string
export function tailFile(file: string, lines?: number): string
