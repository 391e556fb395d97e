/**
 * The return page as the shopper meets it when things are not quick: the
 * webhook is late (the emulator holds it), so the page waits, and when its
 * minute is up it must still say what the shopper has (the amount, a
 * reference they can read), what happens next and how to go on; and a failed
 * payment, whose reason follows the page's language because it travels as a
 * code, never as text in the address.
 *
 * The page's one-minute wait is not waited out: the browser's clock is
 * Playwright's, moved past the minute once the waiting page was checked.
 */
import type { Browser, BrowserContext, Page } from "playwright-core"
import { odemeReasonMessages, odemeWaitingMessages, odemeWaitingText } from "../../../src/storefront"
import { eventually, type AdminApi, type EmulatorControl, type StoreApi } from "../support/api"
import { closeBrowserStack, openBrowserStack, scenarioIn } from "../support/browser-stack"
import { describeWithChromium } from "../support/chromium"
import { assertCapturedOnce } from "../support/payment-checks"
import type { Stack } from "../support/stack"
import {
  addToCartAndCheckout,
  customer,
  expectNoEmptyLabels,
  expectOnlyParams,
  fillAddressAndShipping,
  payWithQuickCheckout,
  screenshot,
  waitForView,
} from "../support/storefront"
import { expectTurkishOnly } from "../support/turkish"

/** What the plugin's return redirect may put in the storefront's address. */
const RETURN_PARAMS = ["status", "session_id", "reason", "returned"]

describeWithChromium("the return page when the payment takes long or fails, in Chromium", () => {
  let stack: Stack
  let browser: Browser
  let admin: AdminApi
  let store: StoreApi
  let emulator: EmulatorControl
  const contexts: BrowserContext[] = []

  beforeAll(async () => {
    ;({ stack, browser, admin, store, emulator } = await openBrowserStack())
  }, 10 * 60_000)

  afterAll(() => closeBrowserStack({ stack, browser }, contexts), 120_000)

  const scenario = (name: string, fn: (page: Page) => Promise<void>) => scenarioIn(browser, contexts, name, fn)
  const text = async (page: Page, testId: string) => ((await page.locator(`[data-testid="${testId}"]`).textContent()) || "").trim()
  const lines = (page: Page, testId: string) => page.locator(`[data-testid="${testId}"] li`).allTextContents()

  /** What the waiting page must show in Turkish in every phase: amount, next steps, a way back, the cart still counted. */
  async function checkWaitingPage(page: Page, phase: "checking" | "confirming", cartTotal: number, where: string) {
    await page.locator(`[data-testid="return-status"][data-phase="${phase}"]`).waitFor()
    await page.locator('[data-testid="return-details"]').waitFor()
    const wanted = odemeWaitingText(phase, "tr")
    expect(await text(page, "return-status-text")).toBe(wanted.title)
    // tr-TR money: "₺1.250,00" (the payment's amount, as the plugin says it).
    const amount = await text(page, "return-amount")
    expect(amount).toContain("₺")
    expect(amount.replace(/\s/g, "")).toContain(new Intl.NumberFormat("tr-TR", { minimumFractionDigits: 2 }).format(cartTotal))
    expect(await lines(page, "return-next")).toEqual(wanted.next)
    expect(await page.locator('[data-testid="return-to-shop"]').getAttribute("href")).toBe("/")
    expect(await text(page, "return-to-shop")).toBe(wanted.backToShop)
    expect(await page.locator('[data-testid="return-to-cart"]').getAttribute("href")).toBe("/#cart")
    expect(await text(page, "return-to-cart")).toBe(wanted.backToCart)
    // The cart still holds its item while the payment is confirmed.
    expect(await text(page, "cart-count")).toBe("1")
    await expectNoEmptyLabels(page, "#view-return")
    expectTurkishOnly(where, await page.innerText("body"))
    expectOnlyParams(page.url(), RETURN_PARAMS)
  }

  it("late webhook: the Turkish shopper waits with the amount, next steps and a way back, checks again and gets the order", async () => {
    await emulator.post("/webhooks", { paused: true })
    try {
      await scenario("return-late-webhook", async (page) => {
        await page.clock.install()
        const c = customer("late-webhook")
        const cartId = await addToCartAndCheckout(page, stack.storefront, "turk-kahvesi", "tr")
        await fillAddressAndShipping(page, c)
        const cartTotal = Number((await store.cart(cartId)).total)
        await payWithQuickCheckout(page, stack.emulator!)
        await page.click("#approve")
        // No verdict within the return route's wait: the page asks the plugin itself.
        await page.waitForURL(`${stack.storefront}/checkout/return?**`, { timeout: 60_000 })
        await waitForView(page, "return")
        expect(new URL(page.url()).searchParams.get("status")).toBe("pending")
        await checkWaitingPage(page, "checking", cartTotal, "the waiting page")
        await expect(page.locator('[data-testid="return-check-again"]').isVisible()).resolves.toBe(false)
        await screenshot(page, "return-late-webhook-waiting")

        // The page's minute is up and the webhook is still held.
        await page.clock.fastForward("01:05")
        await checkWaitingPage(page, "confirming", cartTotal, "the waiting page after its minute")
        expect(await page.innerText("#view-return")).not.toMatch(/e-posta/i) // the demo store sends no e-mail
        expect(await lines(page, "return-next")).toContain(odemeWaitingMessages.tr.doNotPayAgain)
        await page.locator('[data-testid="return-check-again"]').waitFor()
        await screenshot(page, "return-late-webhook-confirming")
        expect(await admin.ordersByEmail(c.email)).toEqual([])

        // The webhook arrives: the plugin places the order; asked again, the page shows it.
        await emulator.post("/webhooks", { paused: false })
        const [order] = await eventually(
          "the order placed by the webhook",
          async () => {
            const orders = await admin.ordersByEmail(c.email)
            return orders.length > 0 && orders
          },
          60_000
        )
        await page.click('[data-testid="return-check-again"]')
        await page.waitForURL(`${stack.storefront}/order/confirmed?**`, { timeout: 60_000 })
        await waitForView(page, "confirmation")
        expect(new URL(page.url()).searchParams.get("order_id")).toBe(order.id)
        const placed = await admin.order(order.id)
        expect(await text(page, "order-display-id")).toBe(`#${placed.display_id}`)
        await expectNoEmptyLabels(page, "#view-confirmation")
        expectTurkishOnly("the order confirmation after the late webhook", await page.innerText("body"))
        await assertCapturedOnce(admin, emulator, order.id, "pp_odeme-checkout_odeme")
      })
    } finally {
      await emulator.post("/webhooks", { paused: false })
    }
  })

  it("a failure: its reason follows the language switch, on the return page and back at the payment step; the address carries only its code", async () => {
    await scenario("return-failure-language", async (page) => {
      const c = customer("failure-language")
      await addToCartAndCheckout(page, stack.storefront)
      await fillAddressAndShipping(page, c)
      await payWithQuickCheckout(page, stack.emulator!)
      await page.click("#reject")
      await page.waitForURL(`${stack.storefront}/checkout/return?**`)
      await page.locator('[data-testid="return-status"][data-status="failed"]').waitFor()
      const reason = odemeReasonMessages.authentication_failed
      expect(new URL(page.url()).searchParams.get("reason")).toBe("authentication_failed")
      expectOnlyParams(page.url(), RETURN_PARAMS)
      expect(await text(page, "return-message")).toBe(reason.en)
      expect(await text(page, "cart-count")).toBe("1")

      await page.click('[data-testid="lang-tr"]')
      await page.locator('[data-testid="return-message"]', { hasText: reason.tr }).waitFor()
      expect(await text(page, "return-message")).toBe(reason.tr)
      expectTurkishOnly("the failed payment's return page", await page.innerText("body"))
      await screenshot(page, "return-failure-tr")

      await page.click('[data-testid="back-to-payment"]')
      await page.waitForURL(`${stack.storefront}/checkout?**`)
      await waitForView(page, "checkout")
      // The reason's code, never its text; no id the page does not need.
      expectOnlyParams(page.url(), ["reason"])
      expect(new URL(page.url()).searchParams.get("reason")).toBe("authentication_failed")
      const banner = page.locator('[data-testid="error-banner"]')
      expect(await banner.textContent()).toContain(reason.tr)
      expectTurkishOnly("the payment step after a failure", await page.innerText("body"))

      await page.click('[data-testid="lang-en"]')
      await page.locator('[data-testid="error-banner"]', { hasText: reason.en }).waitFor()
      expect(await banner.textContent()).not.toContain(reason.tr)
      expect(await admin.ordersByEmail(c.email)).toEqual([])
    })
  })
})
