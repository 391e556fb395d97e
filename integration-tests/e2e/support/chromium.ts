/**
 * Debian's Chromium driven by playwright-core (no browser download).
 * CHROMIUM_PATH overrides /usr/bin/chromium; when the binary is missing the
 * e2e tests are skipped (jest reports them as skipped) with one notice.
 */
import fs from "node:fs"
import { chromium, type Browser, type BrowserContext } from "playwright-core"

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || "/usr/bin/chromium"
export const chromiumFound = fs.existsSync(CHROMIUM_PATH)

export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-quic",
  "--no-first-run",
  "--disable-component-update",
  "--disable-sync",
]

/** The viewport of every page (and of the screenshots in docs/). */
export const VIEWPORT = { width: 1200, height: 800 }

/**
 * `describe` when Chromium is there, otherwise `describe.skip` after printing
 * one notice, so the tests show up as skipped rather than passed.
 */
export function describeWithChromium(name: string, fn: () => void): void {
  if (chromiumFound) return describe(name, fn)
  process.stdout.write(`\ne2e skipped: Chromium not found at ${CHROMIUM_PATH}; install with apt-get install chromium\n\n`)
  describe.skip(name, fn)
}

/**
 * A headless Chromium. Playwright starts it with a fresh temporary
 * user-data-dir (removed on close); every scenario then uses a context of its
 * own, so no cookies or localStorage (the storefront's cart) leak between them.
 */
export async function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true, timeout: 60_000 })
}

export async function newContext(browser: Browser): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: VIEWPORT, locale: "en-GB", timezoneId: "Europe/Istanbul" })
  context.setDefaultTimeout(30_000)
  context.setDefaultNavigationTimeout(60_000)
  return context
}
