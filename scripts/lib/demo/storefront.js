/**
 * The demo storefront: static files of demo/storefront, its config, the
 * browser bundle of @medusajs/js-sdk and a proxy to the emulator's settle
 * control (so the page needs no CORS).
 */
const fs = require("node:fs")
const http = require("node:http")
const path = require("node:path")
const { requestJson } = require("../http")
const { ROOT } = require("../plugin-build")
const { portTakenMessage } = require("./ports")

const MIME = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".json": "application/json; charset=utf-8",
}

/**
 * Bundles @medusajs/js-sdk (ESM, with qs) and the plugin's browser entry
 * (medusa-payment-odeme/storefront, as `odeme`: error codes with their TR/EN
 * texts, completeWhenPaid) for the browser, once per SDK version and plugin build.
 */
async function bundleSdk(cfg, log) {
  let dir = path.dirname(require.resolve("@medusajs/js-sdk", { paths: [ROOT] }))
  while (!fs.existsSync(path.join(dir, "package.json"))) dir = path.dirname(dir)
  const version = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8")).version
  const entry = path.join(ROOT, ".medusa", "server", "src", "storefront", "index.js")
  const built = Math.round(fs.statSync(entry).mtimeMs)
  const out = path.join(cfg.data, "storefront", `vendor-${version}-${built}.js`)
  if (!fs.existsSync(out)) {
    const esbuild = require(require.resolve("esbuild", { paths: [ROOT, path.join(ROOT, "node_modules", "vite")] }))
    await esbuild.build({
      stdin: {
        contents: `export { default } from "@medusajs/js-sdk"\nexport * as odeme from ${JSON.stringify(entry)}\n`,
        resolveDir: ROOT,
      },
      bundle: true,
      format: "esm",
      platform: "browser",
      target: "es2020",
      minify: true,
      outfile: out,
      mainFields: ["browser", "module", "main"],
      conditions: ["import", "browser"],
      define: { "process.env.NODE_ENV": '"production"' },
      logLevel: "silent",
    })
    log(`   bundled @medusajs/js-sdk ${version} and medusa-payment-odeme/storefront for the browser`)
  }
  return out
}

async function proxySettle(cfg, req, tracking) {
  let body = ""
  for await (const c of req) body += c
  const result = JSON.parse(body || "{}").result === "failed" ? "failed" : "successful"
  return requestJson(`${cfg.emulatorUrl}/_control/transfers/${tracking}/settle`, { method: "POST", body: { result } })
}

/** Resolves with the listening http.Server. */
function startStorefront(cfg, { sdkFile, emulator }) {
  const config = () => ({
    backendUrl: cfg.backendUrl,
    publishableKey: fs.readFileSync(cfg.keyFile, "utf8").trim(),
    mode: cfg.useEmulator ? "sandbox" : process.env.ODEME_MODE || "sandbox",
    emulator: Boolean(emulator),
    emulatorUrl: emulator ? cfg.emulatorUrl : null,
    // The demo store sends no e-mail: its pages promise none unless this says it does.
    storeSendsEmail: cfg.storeSendsEmail,
  })
  const root = cfg.storefrontDir
  const server = http.createServer(async (req, res) => {
    const send = (status, type, body) => {
      res.writeHead(status, { "content-type": type, "cache-control": "no-store" })
      res.end(body)
    }
    try {
      const url = new URL(req.url, cfg.storefrontUrl)
      if (url.pathname === "/config.json") return send(200, MIME[".json"], JSON.stringify(config()))
      if (url.pathname === "/vendor/medusa-js-sdk.js") return send(200, MIME[".js"], fs.readFileSync(sdkFile))
      const settle = url.pathname.match(/^\/demo\/emulator\/transfers\/([A-Za-z0-9-]+)\/settle$/)
      if (settle) {
        if (!emulator || req.method !== "POST") return send(404, MIME[".json"], JSON.stringify({ message: "Not available" }))
        const r = await proxySettle(cfg, req, settle[1])
        return send(r.status, MIME[".json"], r.text)
      }
      // Static files; any other path without an extension is a page of the app.
      const rel = path.normalize(decodeURIComponent(url.pathname)).replace(/^([/\\])+/, "")
      let file = path.join(root, rel)
      if (!file.startsWith(root)) return send(403, "text/plain", "Forbidden")
      if (!path.extname(file) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) {
        if (path.extname(rel)) return send(404, "text/plain", "Not found")
        file = path.join(root, "index.html")
      }
      send(200, MIME[path.extname(file)] || "application/octet-stream", fs.readFileSync(file))
    } catch (e) {
      send(500, "text/plain", String(e && e.message))
    }
  })
  return new Promise((resolve, reject) => {
    const ours = cfg.ports.find((p) => p.key === "storefrontPort")
    server.once("error", (e) => reject(e.code === "EADDRINUSE" ? new Error(portTakenMessage(ours)) : e))
    server.listen(cfg.storefrontPort, () => resolve(server))
  })
}

module.exports = { bundleSdk, startStorefront }
