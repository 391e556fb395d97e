/**
 * Everything a test file logs, recorded from the very start (Medusa's boot
 * included): the logger object Medusa registers (every level, before level
 * filtering), the raw process streams and the console. For "no secret in any
 * log line" checks.
 */
import { logger as medusaLogger } from "@medusajs/framework/logger"

export const logLines: string[] = []
const restoreLogCapture: Array<() => void> = []
function stringifyArgs(args: unknown[]): string {
  return args
    .map((a) => {
      if (typeof a === "string") return a
      if (a instanceof Error) return `${a.name}: ${a.message}\n${a.stack ?? ""}`
      try {
        return JSON.stringify(a)
      } catch {
        return Object.prototype.toString.call(a)
      }
    })
    .join(" ")
}
export function captureLogs() {
  const target = medusaLogger as unknown as Record<string, unknown>
  for (const level of ["panic", "activity", "progress", "error", "failure", "success", "silly", "debug", "verbose", "http", "info", "warn", "log"]) {
    const original = target[level]
    if (typeof original !== "function") continue
    target[level] = function (this: unknown, ...args: unknown[]) {
      logLines.push(`[logger.${level}] ${stringifyArgs(args)}`)
      return (original as (...a: unknown[]) => unknown).apply(medusaLogger, args)
    }
    restoreLogCapture.push(() => {
      target[level] = original
    })
  }
  for (const stream of [process.stdout, process.stderr]) {
    const original = stream.write
    stream.write = function (this: NodeJS.WriteStream, chunk: unknown, ...rest: unknown[]) {
      logLines.push(`[${stream === process.stdout ? "stdout" : "stderr"}] ${Buffer.isBuffer(chunk) ? chunk.toString("utf8") : String(chunk)}`)
      return (original as (...a: unknown[]) => boolean).call(stream, chunk, ...rest)
    } as typeof stream.write
    restoreLogCapture.push(() => {
      stream.write = original
    })
  }
  const con = console as unknown as Record<string, unknown>
  for (const level of ["log", "info", "warn", "error", "debug", "trace"]) {
    const original = con[level]
    con[level] = (...args: unknown[]) => {
      logLines.push(`[console.${level}] ${stringifyArgs(args)}`)
      return (original as (...a: unknown[]) => unknown).apply(console, args)
    }
    restoreLogCapture.push(() => {
      con[level] = original
    })
  }
}

export function restoreLogs() {
  for (const restore of restoreLogCapture.splice(0).reverse()) restore()
}
