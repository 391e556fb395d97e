export interface PollOptions {
  what?: string
  timeoutMs?: number
  intervalMs?: number
  proc?: { exitCode: number | null; signalCode: NodeJS.Signals | null; logFile?: string; output?(): string }
}
export function pollUntil<T>(fn: () => Promise<T | undefined | null | false> | T | undefined | null | false, opts?: PollOptions): Promise<T>
