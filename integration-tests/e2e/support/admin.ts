/**
 * The Medusa Admin in the browser: logging in, and the first visit that makes
 * `medusa develop` compile it (Vite), which takes minutes on 2 cores.
 */
import type { Browser, BrowserContext, Page } from "playwright-core"
import { ADMIN } from "./api"
import { newContext } from "./chromium"

/** Fills the login form already on the page and waits until the Admin leaves /login. */
export async function loginToAdmin(page: Page) {
  const email = page.locator('input[name="email"]')
  await email.waitFor({ timeout: 240_000 })
  await email.fill(ADMIN.email)
  await page.fill('input[name="password"]', ADMIN.password)
  await page.click('button[type="submit"]')
  await page.waitForURL((u) => !u.pathname.endsWith("/login"), { timeout: 120_000 })
}

/**
 * Logs in and opens an order page (of no order), which loads the order detail
 * route and its widgets, so a later test finds them compiled. The context is
 * added to `contexts` so the caller closes it even if this never finishes.
 */
export async function warmUpAdmin(browser: Browser, adminUrl: string, contexts: BrowserContext[]) {
  const context = await newContext(browser)
  contexts.push(context)
  const page = await context.newPage()
  await page.goto(`${adminUrl}/login`, { timeout: 240_000 })
  await page.locator('input[name="email"]').waitFor({ timeout: 240_000 })
  await loginToAdmin(page)
  await page.goto(`${adminUrl}/orders/order_warmup`, { timeout: 240_000 })
  await page.waitForLoadState("networkidle", { timeout: 240_000 })
  await context.close()
}

/** Profile → Edit → Language → Türkçe → Save, as an admin user does it (Medusa keeps the choice in the browser). */
export async function chooseTurkish(page: Page, adminUrl: string) {
  await page.goto(`${adminUrl}/settings/profile/edit`, { timeout: 120_000 })
  const drawer = page.getByRole("dialog")
  await drawer.waitFor({ timeout: 120_000 })
  await drawer.getByRole("combobox").click()
  await page.getByRole("option", { name: "Türkçe" }).click()
  await drawer.locator('button[type="submit"]').click()
  await page.waitForFunction(() => localStorage.getItem("lng") === "tr", undefined, { timeout: 30_000 })
}
