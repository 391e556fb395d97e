import { createServer, request as httpRequest, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import type { RunningEmulator } from "../../emulator"

export const SANDBOX_KEY = "sandbox_test_key_0001"
export const LIVE_KEY = "live_contract_key_0009"
export const LIVE_ID = 2009

export async function control(emu: RunningEmulator, path: string, body?: unknown) {
  const res = await fetch(`${emu.url}/_control${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  return (await res.json()) as any
}

/**
 * A stand-in for a sandbox that answers differently: forwards to the
 * emulator and lets a test rewrite JSON answers.
 */
export async function startDriftingProxy(
  upstream: string,
  rewrite: (path: string, json: any) => any
): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on("data", (c) => chunks.push(c))
    req.on("end", () => {
      const up = new URL(req.url ?? "/", upstream)
      const headers = { ...req.headers, host: up.host }
      const out = httpRequest(up, { method: req.method, headers }, (ures) => {
        const body: Buffer[] = []
        ures.on("data", (c) => body.push(c))
        ures.on("end", () => {
          let text = Buffer.concat(body).toString("utf8")
          const isJson = String(ures.headers["content-type"] ?? "").includes("json")
          if (isJson) text = JSON.stringify(rewrite(up.pathname, JSON.parse(text)))
          const h = { ...ures.headers }
          delete h["content-length"]
          res.writeHead(ures.statusCode ?? 502, h)
          res.end(text)
        })
      })
      out.on("error", () => {
        res.statusCode = 502
        res.end()
      })
      out.end(Buffer.concat(chunks))
    })
  })
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()))
  const port = (server.address() as AddressInfo).port
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r())
        server.closeAllConnections()
      }),
  }
}
