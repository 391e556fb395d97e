import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { checkoutRoutes } from "./checkout-routes"
import type { EmulatorContext } from "./context"
import { controlRoutes } from "./control-routes"
import { FaultRegistry } from "./faults"
import { createRouter } from "./router"
import { saleRoutes } from "./sale-routes"
import { buildConfig, EmulatorState } from "./state"
import { transferRoutes } from "./transfer-routes"
import type { EmulatorOptions, RunningEmulator } from "./types"
import { WebhookDispatcher } from "./webhooks"

export type { EmulatorOptions, RunningEmulator } from "./types"
export { notificationHash, canonicalNotificationString } from "./hash"

/** Starts the emulator on a real HTTP port. It has no Medusa dependency. */
export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const host = options.host ?? "127.0.0.1"
  const log = options.logger ?? (() => undefined)
  const server: Server = createServer()
  // Node's default, as a web server keeps it. A 1 s hint made undici (which keeps a 2 s margin under
  // the server's hint) close every connection after one request: a new TCP connection per call.
  server.keepAliveTimeout = 5000

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject)
    server.listen(options.port ?? 4010, host, () => {
      server.off("error", reject)
      resolve()
    })
  })
  const port = (server.address() as AddressInfo).port
  const urlHost = host.includes(":") ? `[${host}]` : host
  const url = `http://${urlHost}:${port}`
  const publicUrl = options.publicUrl ?? url

  const state = new EmulatorState(buildConfig(options, publicUrl))
  const ctx: EmulatorContext = {
    state,
    faults: new FaultRegistry(),
    webhooks: new WebhookDispatcher(() => state.config, log),
    log,
  }
  const handle = createRouter(ctx, [...controlRoutes(), ...transferRoutes(), ...saleRoutes(), ...checkoutRoutes()])
  server.on("request", (req, res) => {
    const started = Date.now()
    res.on("finish", () => log(`${req.method} ${req.url?.split("?")[0]} -> ${res.statusCode} (${Date.now() - started} ms)`))
    void handle(req, res)
  })

  let closing: Promise<void> | undefined
  return {
    url,
    port,
    close() {
      closing ??= new Promise<void>((resolve) => {
        ctx.webhooks.close()
        ctx.faults.close()
        server.close(() => resolve())
        server.closeAllConnections()
      })
      return closing
    },
  }
}
