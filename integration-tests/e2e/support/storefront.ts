/**
 * The demo storefront (demo/storefront) as a customer uses it. Waits on the
 * page's own signals: body[data-ready="true"] once a page has rendered,
 * body[data-view] for the current view, [data-status] on status elements. An
 * error banner that appears while waiting fails the step with its text.
 */
import fs from "node:fs"
import path from "node:path"
import type { Page } from "playwright-core"
import { ROOT } from "./stack"

export const ARTIFACTS = path.join(ROOT, "artifacts", "e2e")

export async function screenshot(page: Page, name: string): Promise<string> {
  fs.mkdirSync(ARTIFACTS, { recursive: true })
  const file = path.join(ARTIFACTS, `${name}.png`)
  await page.screenshot({ path: file })
  return file
}

/** Removes `*-failed.png` left by an earlier run, so the folder shows this run's failures only. */
export function clearFailureShots() {
  if (!fs.existsSync(ARTIFACTS)) return
  for (const f of fs.readdirSync(ARTIFACTS)) if (f.endsWith("-failed.png")) fs.rmSync(path.join(ARTIFACTS, f), { force: true })
}

/**
 * Copies a screenshot into docs/ (committed, for the README) when
 * UPDATE_DOCS_SCREENSHOTS=1, so an ordinary test run leaves the tree clean.
 */
export function publish(file: string, docsName: string) {
  if (process.env.UPDATE_DOCS_SCREENSHOTS !== "1") return
  fs.mkdirSync(path.join(ROOT, "docs"), { recursive: true })
  fs.copyFileSync(file, path.join(ROOT, "docs", docsName))
}

/** Waits for `selector`, failing early with the storefront's error banner if one shows up. */
export async function waitOrError(page: Page, selector: string, timeout = 60_000) {
  const banner = page.locator("#error-banner:not([hidden])")
  const wanted = page.locator(selector).first()
  // Promise.any: the loser's later rejection (timeout, page closed) is handled.
  const winner = await Promise.any([
    wanted.waitFor({ state: "visible", timeout }).then(() => "ok" as const),
    banner.waitFor({ state: "visible", timeout }).then(() => "error" as const),
  ]).catch(() => {
    throw new Error(`${selector} did not show within ${timeout} ms`)
  })
  if (winner === "error") {
    const text = (await banner.textContent())?.trim()
    // The wanted element may still have come (a banner about something else).
    if (!(await wanted.isVisible())) throw new Error(`storefront error while waiting for ${selector}: ${text}`)
  }
}

export async function waitForView(page: Page, view: string, timeout = 60_000) {
  await page.locator(`body[data-view="${view}"][data-ready="true"]`).waitFor({ state: "attached", timeout })
}

export interface Customer {
  email: string
  firstName: string
  lastName: string
}

export function customer(tag: string): Customer {
  return { email: `e2e-${tag}-${Date.now().toString(36)}@odeme.test`, firstName: "Ayşe", lastName: "Yılmaz" }
}

/** Shop → one product in the cart (TRY region, English labels unless `language` says) → checkout page. Returns the cart id. */
export async function addToCartAndCheckout(page: Page, storefront: string, handle = "turk-kahvesi", language: "tr" | "en" = "en"): Promise<string> {
  await page.goto(storefront)
  await waitForView(page, "shop")
  await page.click(`[data-testid="lang-${language}"]`)
  // The switch renders the products again (their images too): a click while that happens can land
  // on a card that is being replaced and be lost, as it was once in CI.
  await waitForView(page, "shop")
  await page.waitForLoadState("networkidle")
  await waitOrError(page, `[data-testid="add-to-cart-${handle}"]`)
  await page.click(`[data-testid="add-to-cart-${handle}"]`)
  await page.locator('[data-testid="cart-count"]', { hasText: /^1$/ }).waitFor()
  await page.locator('[data-testid="checkout-button"]:not([disabled])').click()
  await page.waitForURL(/\/checkout$/)
  await waitForView(page, "checkout")
  const cartId = await page.evaluate(() => localStorage.getItem("odeme-demo:cart"))
  if (!cartId) throw new Error("the storefront has no cart id in localStorage")
  return cartId
}

/** Address and shipping steps; leaves the page on the payment choice. */
export async function fillAddressAndShipping(page: Page, c: Customer) {
  await page.fill('[data-testid="email"]', c.email)
  await page.fill('[data-testid="first-name"]', c.firstName)
  await page.fill('[data-testid="last-name"]', c.lastName)
  await page.fill('[data-testid="address-1"]', "Bağdat Caddesi 1")
  await page.fill('[data-testid="city"]', "İstanbul")
  await page.fill('[data-testid="postal-code"]', "34710")
  await page.fill('[data-testid="phone"]', "+905551112233")
  await page.click('[data-testid="address-submit"]')
  await waitOrError(page, '[data-testid="shipping-option"]')
  await page.locator('[data-testid="shipping-option"]').first().check()
  await page.click('[data-testid="shipping-submit"]')
  await waitOrError(page, '[data-testid="payment-form"] [data-testid="pay-checkout"]:not([disabled])')
}

/** Chooses Quick Checkout and pays: the browser lands on the service's (emulator's) page. */
export async function payWithQuickCheckout(page: Page, emulatorUrl: string) {
  await page.check('[data-testid="pay-checkout"]')
  await waitOrError(page, '[data-testid="checkout-pay-button"]')
  await Promise.all([
    page.waitForURL((u) => u.toString().startsWith(emulatorUrl), { timeout: 60_000 }),
    page.click('[data-testid="checkout-pay-button"]'),
  ])
  await page.locator("#approve, #error").first().waitFor()
  const refused = page.locator("#error")
  if (await refused.isVisible()) throw new Error(`the service refused the form: ${await refused.textContent()}`)
}

/** Waits for the storefront's order confirmation; returns the order id from the URL. */
export async function waitForConfirmation(page: Page, storefront: string, timeout = 90_000): Promise<string> {
  const failed = page.locator('[data-testid="return-status"][data-status="failed"]')
  const confirmed = page.waitForURL(`${storefront}/order/confirmed?**`, { timeout })
  const outcome = await Promise.any([confirmed.then(() => "ok" as const), failed.waitFor({ timeout }).then(() => "failed" as const)]).catch(() => {
    throw new Error(`no order confirmation within ${timeout} ms; the page is at ${page.url()}`)
  })
  if (outcome === "failed") throw new Error(`payment failed on the storefront: ${await page.locator('[data-testid="return-message"]').textContent()}`)
  await waitForView(page, "confirmation")
  const orderId = new URL(page.url()).searchParams.get("order_id")
  if (!orderId) throw new Error(`no order_id in ${page.url()}`)
  return orderId
}

/**
 * Every label the shopper can see inside `root` has a value beside it: a visible `dt` whose
 * `dd` is hidden or empty is a label beside nothing. Fails naming the labels.
 */
export async function expectNoEmptyLabels(page: Page, root: string) {
  const empty = await page.locator(root).evaluate((el) =>
    [...el.querySelectorAll("dt")]
      .filter((dt) => dt.checkVisibility())
      .filter((dt) => {
        const dd = dt.nextElementSibling
        return !dd || dd.tagName !== "DD" || !dd.checkVisibility() || !(dd.textContent || "").trim()
      })
      .map((dt) => (dt.textContent || "").trim() || "(a label without text)")
  )
  if (empty.length) throw new Error(`${root} shows labels without a value: ${empty.join(", ")}`)
}

/** The storefront address holds only `allowed` parameters (the plugin's redirect: codes and the session, no free text, no cart or order id). */
export function expectOnlyParams(url: string, allowed: string[]) {
  const names = [...new URL(url).searchParams.keys()]
  const extra = names.filter((n) => !allowed.includes(n))
  if (extra.length) throw new Error(`${url} carries ${extra.join(", ")} (only ${allowed.join(", ")} belong there)`)
}
