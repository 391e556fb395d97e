#!/usr/bin/env node
/**
 * `npm run compat`: proves the peer ranges in package.json. For the oldest Medusa the
 * ranges allow and for the newest 2.x on the registry, it installs the packed plugin
 * (scripts/pack.js) into a throw-away Medusa store with plain `npm install` (no
 * --legacy-peer-deps: an ERESOLVE fails the check), configures it as the README says
 * (`odemeConfig` from medusa-payment-odeme/config), runs `medusa db:migrate`, seeds it
 * with the demo's seed, starts it, and pays once with each provider against the emulator:
 *   - Quick Checkout: signed form → the emulator's page → card approved → the verified
 *     webhook completes the cart → one order, one capture;
 *   - bank transfer: a pending transfer (`pending_authorization` session), the order is
 *     placed awaiting the money, the emulator settles it → one capture.
 *
 *   node scripts/compat.js [--versions 2.17.2,latest] [--work <dir>] [--keep]
 *
 * Versions default to the peer range's lower bound and `latest` (resolved with `npm view`).
 * Stores live in .tmp/compat/store-<version> (kept between runs so npm reuses them and its
 * cache); PostgreSQL is embedded (or DATABASE_URL / DB_*), one database per version, dropped
 * at the end. Logs: .tmp/compat/logs/. Medusa-booting: run it under the heavy lock on a
 * shared machine (flock /tmp/odeme-heavy.lock npm run compat).
 */
const fs = require("node:fs")
const path = require("node:path")
const { execFileSync } = require("node:child_process")
const { ROOT } = require("./lib/plugin-build")
const { packPlugin } = require("./pack")
const { ensurePostgres } = require("./postgres")
const { startEmulator } = require("./lib/emulator")
const { startMedusaProcess, medusaArgs } = require("./lib/medusa")
const { run, stopAll } = require("./lib/processes")
const { requestJson, requestJsonOk } = require("./lib/http")
const { pollUntil } = require("./lib/poll")
const { freePort } = require("./lib/ports")
const { cartOutcomeFromSql } = require("./lib/cart-outcome")

const arg = (name) => {
  const i = process.argv.indexOf(name)
  return i > 0 ? process.argv[i + 1] : undefined
}
const WORK = path.resolve(arg("--work") || path.join(ROOT, ".tmp", "compat"))
const LOGS = path.join(WORK, "logs")
const KEEP = process.argv.includes("--keep")
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8"))
const log = (m) => console.log(`[compat] ${m}`)
const secs = (ms) => `${(ms / 1000).toFixed(0)} s`

/** The versions to prove: the lower bound of the `@medusajs/medusa` peer range and the newest 2.x. */
function versionsToCheck() {
  const given = arg("--versions")
  const lower = /^\^(\d+\.\d+\.\d+)$/.exec(pkg.peerDependencies["@medusajs/medusa"])?.[1]
  if (!lower) throw new Error(`the @medusajs/medusa peer range is not ^x.y.z: ${pkg.peerDependencies["@medusajs/medusa"]}`)
  const wanted = given ? given.split(",").map((v) => v.trim()) : [lower, "latest"]
  const resolved = wanted.map((v) =>
    /^\d+\.\d+\.\d+$/.test(v)
      ? v
      : execFileSync("npm", ["view", `@medusajs/medusa@${v}`, "version"], { encoding: "utf8" })
          .trim()
          .split("\n")
          .pop()
          .replace(/^.* '?|'$/g, "")
  )
  for (const v of resolved) if (!v.startsWith("2.")) throw new Error(`not a Medusa 2.x version: ${v}`)
  return [...new Set(resolved)]
}

/** A Medusa app as `create-medusa-app` would make it, minus the Admin build (nothing here opens it). */
function writeStore(dir, version, tarball) {
  fs.mkdirSync(path.join(dir, "src", "scripts"), { recursive: true })
  const dev = pkg.devDependencies
  const manifest = {
    name: `odeme-compat-${version.replace(/\./g, "-")}`,
    private: true,
    dependencies: {
      "@medusajs/medusa": version,
      "@medusajs/framework": version,
      "@medusajs/cli": version,
      "medusa-payment-odeme": `file:${tarball}`,
    },
    devDependencies: { typescript: dev.typescript, "ts-node": dev["ts-node"] },
  }
  fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify(manifest, null, 2) + "\n")
  fs.writeFileSync(
    path.join(dir, "tsconfig.json"),
    JSON.stringify(
      {
        compilerOptions: { target: "ES2021", module: "Node16", moduleResolution: "Node16", esModuleInterop: true, skipLibCheck: true, strict: false },
        "ts-node": { transpileOnly: true },
        include: ["medusa-config.ts", "src"],
      },
      null,
      2
    ) + "\n"
  )
  // The README's configuration, with the addresses of this run.
  fs.writeFileSync(
    path.join(dir, "medusa-config.ts"),
    `import { defineConfig, loadEnv } from "@medusajs/framework/utils"
import { odemeConfig } from "medusa-payment-odeme/config"

loadEnv(process.env.NODE_ENV || "development", process.cwd())

const odeme = odemeConfig({
  apiKey: process.env.ODEME_API_KEY,
  apiId: process.env.ODEME_API_ID,
  baseUrl: process.env.ODEME_BASE_URL,
  mode: process.env.ODEME_MODE,
  backendUrl: process.env.ODEME_BACKEND_URL,
  storefrontUrl: process.env.ODEME_STOREFRONT_URL,
})

export default defineConfig({
  projectConfig: {
    databaseUrl: process.env.DATABASE_URL,
    http: {
      storeCors: process.env.ODEME_STOREFRONT_URL!, adminCors: process.env.ODEME_BACKEND_URL!, authCors: process.env.ODEME_BACKEND_URL!,
      jwtSecret: "compat-jwt", cookieSecret: "compat-cookie",
    },
  },
  admin: { disable: true },
  plugins: [odeme.plugin],
  modules: [{ resolve: "@medusajs/medusa/payment", options: { providers: [odeme.paymentProvider] } }],
})
`
  )
  fs.copyFileSync(path.join(ROOT, "demo", "src", "scripts", "seed.ts"), path.join(dir, "src", "scripts", "seed.ts"))
}

async function createDatabase(pgEnv, name) {
  const { Client } = require("pg")
  const client = new Client({
    host: pgEnv.DB_HOST,
    port: Number(pgEnv.DB_PORT),
    user: pgEnv.DB_USERNAME,
    password: pgEnv.DB_PASSWORD,
    database: "postgres",
  })
  await client.connect()
  try {
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)
    await client.query(`CREATE DATABASE "${name}"`)
  } finally {
    await client.end()
  }
  const auth = `${encodeURIComponent(pgEnv.DB_USERNAME)}${pgEnv.DB_PASSWORD ? `:${encodeURIComponent(pgEnv.DB_PASSWORD)}` : ""}`
  const url = `postgres://${auth}@${pgEnv.DB_HOST}:${pgEnv.DB_PORT}/${name}`
  const sql = async (text, params) => {
    const c = new Client({ connectionString: url })
    await c.connect()
    try {
      return (await c.query(text, params)).rows
    } finally {
      await c.end()
    }
  }
  const drop = async () => {
    const c = new Client({
      host: pgEnv.DB_HOST,
      port: Number(pgEnv.DB_PORT),
      user: pgEnv.DB_USERNAME,
      password: pgEnv.DB_PASSWORD,
      database: "postgres",
    })
    await c.connect()
    await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).finally(() => c.end())
  }
  return { url, sql, drop }
}

/** The store API as a storefront calls it: a cart with an item, an address and shipping, ready for payment. */
function storeApi(backendUrl, publishableKey) {
  const headers = { "x-publishable-api-key": publishableKey }
  const call = (method, p, body) => requestJsonOk(`${backendUrl}${p}`, { method, headers, body }).then((r) => r.json)
  return {
    backendUrl,
    headers,
    call,
    async cartWithSession(providerId, data) {
      const { regions } = await call("GET", "/store/regions")
      const region = regions.find((r) => r.currency_code === "try")
      const { products } = await call("GET", `/store/products?region_id=${region.id}&fields=id,*variants`)
      const { cart } = await call("POST", "/store/carts", {
        region_id: region.id,
        email: "ayse@example.com",
        shipping_address: {
          first_name: "Ayşe",
          last_name: "Yılmaz",
          address_1: "Bağdat Cd. 1",
          city: "İstanbul",
          postal_code: "34710",
          country_code: "tr",
        },
      })
      await call("POST", `/store/carts/${cart.id}/line-items`, { variant_id: products[0].variants[0].id, quantity: 1 })
      const { shipping_options } = await call("GET", `/store/shipping-options?cart_id=${cart.id}`)
      await call("POST", `/store/carts/${cart.id}/shipping-methods`, { option_id: shipping_options[0].id })
      const { payment_collection } = await call("POST", "/store/payment-collections", { cart_id: cart.id })
      const res = await call("POST", `/store/payment-collections/${payment_collection.id}/payment-sessions`, { provider_id: providerId, data })
      const session = res.payment_collection.payment_sessions.find((s) => s.provider_id === providerId)
      return { cart, session }
    },
  }
}

/** Posts a form the way a browser does and returns where it redirects (scripts' twin of the tests' checkout driver). */
async function postForm(url, fields) {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString(),
    redirect: "manual",
  })
  const location = res.headers.get("location")
  if (!location) throw new Error(`POST ${url}: ${res.status} without a redirect: ${(await res.text()).slice(0, 300)}`)
  return new URL(location, url).toString()
}

async function payWithQuickCheckout(api, db) {
  const { cart, session } = await api.cartWithSession("pp_odeme-checkout_odeme", { return_url: "http://localhost:8000/checkout/return" })
  const { form } = await api.call("POST", `/store/odeme/payment-sessions/${session.id}/form`, { cart_id: cart.id })
  const page = await postForm(form.action, form.fields)
  const back = await postForm(`${page}/complete`, { outcome: "approve" })
  const ret = await fetch(back, { redirect: "manual" })
  const location = ret.headers.get("location") || ""
  if (!/status=(paid|pending)/.test(location)) throw new Error(`the return route sent the customer to ${location || `nowhere (${ret.status})`}`)
  // The verified webhook completes the cart; the storefront's own completion would get the same order.
  const outcome = await pollUntil(
    async () => {
      const o = await cartOutcomeFromSql(db.sql, cart.id)
      return o.orders === 1 && o.captures === 1 ? o : null
    },
    { what: "one order with one capture after the card payment", timeoutMs: 60_000, intervalMs: 500 }
  )
  return `order ${outcome.orderIds[0]}, ${outcome.captures} capture (return: ${new URL(location, back).searchParams.get("status")})`
}

async function payWithTransfer(api, db, emulator) {
  const { bank_groups } = await api.call("GET", "/store/odeme/banks")
  const bankId = bank_groups[0].accounts[0].bank_id
  const { cart, session } = await api.cartWithSession("pp_odeme-transfer_odeme", {
    bank_id: bankId,
    customer_name: "Ayşe Yılmaz",
    sandbox_result: "pending",
  })
  const completed = await requestJson(`${api.backendUrl}/store/carts/${cart.id}/complete`, { method: "POST", headers: api.headers, body: {} })
  if (completed.json?.type !== "order") {
    const why = completed.json?.error ? JSON.stringify(completed.json.error) : completed.text.slice(0, 300)
    throw new Error(
      `completing the cart with a pending transfer answered ${completed.json?.type ?? `HTTP ${completed.status}`}, not an order: ${why}`
    )
  }
  const [sessionRow] = await db.sql(`select status from payment_session where id = $1`, [session.id])
  if (sessionRow?.status !== "pending_authorization") throw new Error(`the session is ${sessionRow?.status}, not pending_authorization`)
  const before = await cartOutcomeFromSql(db.sql, cart.id)
  if (before.orders !== 1 || before.captures !== 0) throw new Error(`before the money: ${JSON.stringify(before)}`)
  const transfers = (await emulator.control("GET", "/_control/transfers")).result
  const transfer = transfers.find((t) => t.order_id === (session.data?.shopper_reference ?? session.id))
  await emulator.control("POST", `/_control/transfers/${transfer.uuid}/settle`, { result: "successful" })
  const after = await pollUntil(
    async () => {
      const o = await cartOutcomeFromSql(db.sql, cart.id)
      return o.captures === 1 ? o : null
    },
    { what: "the transfer's capture after the emulator settled it", timeoutMs: 90_000, intervalMs: 500 }
  )
  return `order ${after.orderIds[0]} placed awaiting the transfer (pending_authorization), captured after it settled`
}

async function checkVersion(version, { tarball, pg, emulator, port }) {
  const started = Date.now()
  const timings = []
  const timed = async (what, fn) => {
    const t = Date.now()
    const r = await fn()
    timings.push(`${what} ${secs(Date.now() - t)}`)
    return r
  }
  const dir = path.join(WORK, `store-${version}`)
  writeStore(dir, version, tarball)
  const logFile = (name) => path.join(LOGS, `${version}-${name}.log`)
  // The tarball named explicitly: a store kept from an earlier run would otherwise keep the
  // plugin its lockfile recorded (same file name, older contents).
  await timed("install", () =>
    run("npm install", "npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", tarball], {
      cwd: dir,
      env: { ...process.env, MEDUSA_DISABLE_TELEMETRY: "true" },
      logFile: logFile("install"),
    })
  )
  const installed = JSON.parse(fs.readFileSync(path.join(dir, "node_modules", "@medusajs", "medusa", "package.json"), "utf8")).version
  if (installed !== version) throw new Error(`npm installed @medusajs/medusa ${installed}, not ${version}`)
  const stamp = (root) => fs.readFileSync(path.join(root, ".medusa", "server", ".build-stamp"), "utf8")
  if (stamp(path.join(dir, "node_modules", "medusa-payment-odeme")) !== stamp(ROOT)) {
    throw new Error("the store's medusa-payment-odeme is not the build just packed")
  }
  const db = await createDatabase(pg.env, `odeme_compat_${version.replace(/\./g, "_")}`)
  const backendUrl = `http://localhost:${port}`
  const env = {
    ...process.env,
    NODE_ENV: "development",
    MEDUSA_DISABLE_TELEMETRY: "true",
    DATABASE_URL: db.url,
    PORT: String(port),
    ODEME_API_KEY: "sandbox_test_key_0001",
    ODEME_API_ID: "1001",
    ODEME_BASE_URL: emulator.url,
    ODEME_MODE: "sandbox",
    ODEME_BACKEND_URL: backendUrl,
    ODEME_STOREFRONT_URL: "http://localhost:8000",
    DEMO_DATA_DIR: path.join(dir, ".data"),
    DEMO_STOREFRONT_URL: "http://localhost:8000",
  }
  for (const k of ["DB_HOST", "DB_PORT", "DB_USERNAME", "DB_PASSWORD"]) delete env[k]
  const cli = path.join(dir, "node_modules", "@medusajs", "cli", "cli.js")
  const medusa = (name, args) => run(`medusa ${args[0]}`, process.execPath, medusaArgs(args, cli), { cwd: dir, env, logFile: logFile(name) })
  let server
  try {
    await timed("migrate", () => medusa("migrate", ["db:migrate"]))
    const tables = await db.sql(`select count(*)::int as n from information_schema.tables where table_name like 'odeme_%'`)
    if (!tables[0].n) throw new Error("db:migrate created none of the plugin's tables")
    await timed("seed", () => medusa("seed", ["exec", "./src/scripts/seed.ts"]))
    server = await timed("start", () =>
      startMedusaProcess({ name: `medusa-${version}`, command: "start", cwd: dir, env, url: backendUrl, logFile: logFile("medusa"), cli })
    )
    const api = storeApi(backendUrl, fs.readFileSync(path.join(dir, ".data", "publishable-key.txt"), "utf8").trim())
    const checkout = await timed("Quick Checkout", () => payWithQuickCheckout(api, db))
    const transfer = await timed("transfer", () => payWithTransfer(api, db, emulator))
    return { version, ok: true, checkout, transfer, timings, total: secs(Date.now() - started) }
  } finally {
    await server?.stop(10_000)
    if (!KEEP) await db.drop().catch(() => {})
  }
}

async function main() {
  const t0 = Date.now()
  fs.mkdirSync(LOGS, { recursive: true })
  const versions = versionsToCheck()
  log(`node ${process.version}; peer range ${pkg.peerDependencies["@medusajs/medusa"]}: checking Medusa ${versions.join(" and ")}`)
  const tarball = await packPlugin({ outDir: WORK, log: (m) => log(m) })
  log(`packed ${path.relative(ROOT, tarball)}`)
  const pg = await ensurePostgres({ log: (m) => log(m), memory: true })
  const port = await freePort()
  const emulator = await startEmulator({
    args: ["--webhook-url", `http://localhost:${port}/odeme/webhook`],
    logFile: path.join(LOGS, "emulator.log"),
  })
  const results = []
  try {
    for (const version of versions) {
      log(`Medusa ${version}: install, migrate, seed, start, pay…`)
      try {
        const r = await checkVersion(version, { tarball, pg, emulator, port })
        log(`Medusa ${version}: ok in ${r.total} (${r.timings.join(", ")})`)
        log(`   Quick Checkout: ${r.checkout}`)
        log(`   bank transfer:  ${r.transfer}`)
        results.push(r)
      } catch (e) {
        log(`Medusa ${version}: FAILED: ${e.message}`)
        log(`   logs: ${path.relative(ROOT, LOGS)}/${version}-*.log`)
        results.push({ version, ok: false })
      }
    }
  } finally {
    await emulator.stop()
    await stopAll()
    await pg.stop()
  }
  const ok = results.every((r) => r.ok)
  log(`${ok ? "passed" : "FAILED"}: ${results.map((r) => `${r.version} ${r.ok ? "ok" : "failed"}`).join(", ")}; total ${secs(Date.now() - t0)}`)
  process.exit(ok ? 0 : 1)
}

main().catch(async (e) => {
  console.error(`[compat] ERROR: ${e.stack || e.message}`)
  await stopAll()
  process.exit(1)
})
