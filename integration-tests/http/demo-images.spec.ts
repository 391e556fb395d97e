/**
 * The demo started again with its storefront on another port (the README moves it for
 * the dtc-starter): the seed ran once, on the first run's address, yet every client of
 * the Store API must get the product images at the storefront's current address, which
 * serves them. Two real starts of `scripts/demo.js --ci` on one data directory and one
 * database, on ports the OS picked.
 */
import fs from "node:fs"
import os from "node:os"
import path from "node:path"
import { freePort } from "../../scripts/lib/ports"
import { startStack, type Stack } from "../e2e/support/stack"
import { withAdminClient } from "../utils/medusa-database"

jest.setTimeout(15 * 60_000)

const DB = `medusa_odeme_demo_images_${process.pid}`

async function thumbnails(stack: Stack): Promise<string[]> {
  const res = await fetch(`${stack.backend}/store/products?fields=title,thumbnail&order=title`, {
    headers: { "x-publishable-api-key": stack.publishableKey },
  })
  expect(res.status).toBe(200)
  return ((await res.json()) as { products: Array<{ thumbnail: string }> }).products.map((p) => p.thumbnail)
}

async function start(dataDir: string): Promise<Stack> {
  const env = {
    ODEME_DEMO_MEDUSA_PORT: String(await freePort()),
    ODEME_DEMO_STOREFRONT_PORT: String(await freePort()),
    ODEME_DEMO_EMULATOR_PORT: String(await freePort()),
  }
  return startStack({ dataDir, args: ["--db-name", DB], env, timeoutMs: 8 * 60_000 })
}

describe("the demo started again on another storefront port", () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "odeme-demo-images-"))
  afterAll(async () => {
    await withAdminClient((c) => c.query(`DROP DATABASE IF EXISTS "${DB}" WITH (FORCE)`))
    fs.rmSync(dataDir, { recursive: true, force: true })
  })

  it("answers the product images at the storefront's new address, which serves them", async () => {
    const first = await start(dataDir)
    let before: string[]
    try {
      before = await thumbnails(first)
    } finally {
      await first.stop()
    }
    expect(before).toHaveLength(3)
    for (const url of before) expect(url.startsWith(`${first.storefront}/img/`)).toBe(true)

    const second = await start(dataDir)
    try {
      expect(second.storefront).not.toBe(first.storefront)
      expect(second.output()).toContain("seed skipped")
      const after = await thumbnails(second)
      expect(after).toEqual(before.map((url) => url.replace(first.storefront, second.storefront)))
      for (const url of after) {
        const img = await fetch(url)
        expect({ url, status: img.status, type: img.headers.get("content-type") }).toEqual({ url, status: 200, type: "image/svg+xml" })
      }
    } finally {
      await second.stop()
    }
  })
})
