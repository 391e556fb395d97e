import type { BrowserContext, Page } from "playwright-core"
import { screenshot } from "./storefront"

/**
 * Runs `fn` in a new page of `context` and closes the context afterwards. On
 * failure: a screenshot `<shot>-failed.png`, and the page's URL and last
 * errors (page errors, and console errors unless `consoleErrors` is false)
 * added to the error's message.
 */
export async function inPage(context: BrowserContext, shot: string, fn: (page: Page) => Promise<void>, { consoleErrors = true } = {}) {
  const page = await context.newPage()
  const problems: string[] = []
  if (consoleErrors) page.on("console", (m) => m.type() === "error" && problems.push(`console: ${m.text()}`))
  page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`))
  try {
    await fn(page)
  } catch (e) {
    await screenshot(page, `${shot}-failed`).catch(() => {})
    const err = e as Error
    err.message += `\n  page: ${page.url()}${problems.length ? `\n  ${problems.slice(-8).join("\n  ")}` : ""}`
    throw err
  } finally {
    await context.close().catch(() => {})
  }
}
