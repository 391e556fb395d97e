import { startEmulator } from "./index"
import type { EmulatorOptions } from "./types"

const HELP = `odeme-emulator: a stateful stand-in for the Odeme payment service

Usage: odeme-emulator [options]

Options (environment variable in brackets; flags win):
  --port <n>                 port, 0 = random, default 4010   [ODEME_EMULATOR_PORT]
  --host <host>              bind address, default 127.0.0.1   [ODEME_EMULATOR_HOST]
  --public-url <url>         base URL used in links             [ODEME_EMULATOR_PUBLIC_URL]
  --api-id <n>               api_id of the access, default 1001 [ODEME_EMULATOR_API_ID]
  --api-key <key>            API key, default sandbox_test_key_0001 [ODEME_EMULATOR_API_KEY]
  --mode <sandbox|live>      mode of that key, default sandbox  [ODEME_EMULATOR_MODE]
  --api-ip <ip>              api_ip restriction, default 0.0.0.0 [ODEME_EMULATOR_API_IP]
  --webhook-url <url>        merchant webhook URL               [ODEME_EMULATOR_WEBHOOK_URL]
  --minimum-amount-try <d>   live minimum in TRY, default 10.00 [ODEME_EMULATOR_MINIMUM_AMOUNT_TRY]
  --currency-variant <A|B>   spec 4.2 rule 3, default B         [ODEME_EMULATOR_CURRENCY_VARIANT]
  --quiet                    no request log                     [ODEME_EMULATOR_QUIET=1]
  --help                     this text

Control API: see src/emulator/README.md (POST /_control/reset, /_control/config, ...).`

const FLAGS: Record<string, string> = {
  port: "ODEME_EMULATOR_PORT",
  host: "ODEME_EMULATOR_HOST",
  "public-url": "ODEME_EMULATOR_PUBLIC_URL",
  "api-id": "ODEME_EMULATOR_API_ID",
  "api-key": "ODEME_EMULATOR_API_KEY",
  mode: "ODEME_EMULATOR_MODE",
  "api-ip": "ODEME_EMULATOR_API_IP",
  "webhook-url": "ODEME_EMULATOR_WEBHOOK_URL",
  "minimum-amount-try": "ODEME_EMULATOR_MINIMUM_AMOUNT_TRY",
  "currency-variant": "ODEME_EMULATOR_CURRENCY_VARIANT",
}

class UsageError extends Error {}

export function parseArgs(argv: string[], env: NodeJS.ProcessEnv): { help: boolean; quiet: boolean; options: EmulatorOptions } {
  const values: Record<string, string> = {}
  for (const [flag, name] of Object.entries(FLAGS)) if (env[name] !== undefined && env[name] !== "") values[flag] = env[name]!
  let help = false
  let quiet = env.ODEME_EMULATOR_QUIET === "1"
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]
    if (arg === "--help" || arg === "-h") help = true
    else if (arg === "--quiet") quiet = true
    else if (arg.startsWith("--")) {
      const eq = arg.indexOf("=")
      const name = eq > 0 ? arg.slice(2, eq) : arg.slice(2)
      if (!(name in FLAGS)) throw new UsageError(`Unknown option --${name}`)
      const value = eq > 0 ? arg.slice(eq + 1) : argv[++i]
      if (value === undefined) throw new UsageError(`Option --${name} needs a value`)
      values[name] = value
    } else throw new UsageError(`Unexpected argument ${arg}`)
  }
  const int = (name: string): number | undefined => {
    if (values[name] === undefined) return undefined
    if (!/^\d+$/.test(values[name])) throw new UsageError(`--${name} must be an integer`)
    return Number(values[name])
  }
  const mode = values.mode
  if (mode !== undefined && mode !== "sandbox" && mode !== "live") throw new UsageError("--mode must be sandbox or live")
  const variant = values["currency-variant"]
  if (variant !== undefined && variant !== "A" && variant !== "B") throw new UsageError("--currency-variant must be A or B")
  return {
    help,
    quiet,
    options: {
      port: int("port"),
      host: values.host,
      publicUrl: values["public-url"],
      apiId: int("api-id"),
      apiKey: values["api-key"],
      mode,
      apiIp: values["api-ip"],
      webhookUrl: values["webhook-url"],
      minimumAmountTry: values["minimum-amount-try"],
      currencyVariant: variant,
    },
  }
}

export async function main(argv = process.argv.slice(2), env = process.env): Promise<void> {
  let parsed: ReturnType<typeof parseArgs>
  try {
    parsed = parseArgs(argv, env)
  } catch (err) {
    if (err instanceof UsageError) {
      console.error(`odeme-emulator: ${err.message}\n\n${HELP}`)
      process.exitCode = 2
      return
    }
    throw err
  }
  if (parsed.help) {
    console.log(HELP)
    return
  }
  const emulator = await startEmulator({
    ...parsed.options,
    logger: parsed.quiet ? undefined : (line) => console.log(`[odeme-emulator] ${line}`),
  })
  console.log(`odeme-emulator listening on ${emulator.url}`)
  let stopping = false
  const stop = (signal: string) => {
    if (stopping) return
    stopping = true
    if (!parsed.quiet) console.log(`[odeme-emulator] ${signal}, closing`)
    emulator.close().then(
      () => process.exit(0),
      () => process.exit(1)
    )
  }
  process.on("SIGINT", () => stop("SIGINT"))
  process.on("SIGTERM", () => stop("SIGTERM"))
}

main().catch((err) => {
  console.error(`odeme-emulator: ${(err as Error)?.message ?? String(err)}`)
  process.exit(1)
})
