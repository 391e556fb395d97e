/**
 * The Turkish shopper's path and the Turkish Admin, read as a Turkish
 * reader reads them: on every page the visible text holds no internal id
 * (payses_…, pay_col_…, order_…, cart_…) and none of the project's own
 * English sentences (support/turkish.ts builds that list from the shipped
 * dictionaries). The pictures are the ones in docs/, taken here so they
 * cannot go stale: with UPDATE_DOCS_SCREENSHOTS=1 they are copied there.
 *
 * Medusa's own Admin chrome follows Medusa's translation, not ours: in the
 * Admin only the plugin's widget and settings page are checked.
 */
import type { Browser, BrowserContext, Page } from "playwright-core"
import { chooseTurkish, loginToAdmin, warmUpAdmin } from "../support/admin"
import { askOdemeFromItem, closePaymentDetails, NO_CHECK_COUNTED, openPaymentDetails, SERVICE_UUID } from "../support/admin-reading"
import { eventually, unknownOutcomeTransfer, type AdminApi, type EmulatorControl, type StoreApi } from "../support/api"
import { closeBrowserStack, openBrowserStack, scenarioIn } from "../support/browser-stack"
import { describeWithChromium } from "../support/chromium"
import { assertCapturedOnce as capturedOnce } from "../support/payment-checks"
import { inPage } from "../support/scenario"
import type { Stack } from "../support/stack"
import { customer, fillAddressAndShipping, publish, screenshot, waitForView, waitOrError, type Customer } from "../support/storefront"
import { expectTurkishOnly, INTERNAL_ID } from "../support/turkish"

describeWithChromium("Turkish without seams: the shopper's path and the Admin in Chromium", () => {
  let stack: Stack
  let browser: Browser
  let admin: AdminApi
  let store: StoreApi
  let emulator: EmulatorControl
  const contexts: BrowserContext[] = []
  const orders: { card?: string; transfer?: string } = {}
  let adminWarm: Promise<unknown> = Promise.resolve()

  beforeAll(async () => {
    ;({ stack, browser, admin, store, emulator } = await openBrowserStack())
    // Vite compiles the Admin on its first visit (minutes on 2 cores): start it while the shopper pays.
    adminWarm = warmUpAdmin(browser, stack.admin, contexts).catch((e) => e)
  }, 10 * 60_000)

  afterAll(() => closeBrowserStack({ stack, browser }, contexts), 120_000)

  const scenario = (name: string, fn: (page: Page) => Promise<void>) => scenarioIn(browser, contexts, name, fn)

  /** The visible text of the page (hidden views and collapsed details are not in innerText). */
  async function shopperSees(page: Page, where: string) {
    expectTurkishOnly(where, await page.innerText("body"))
  }

  /** Shop in Turkish → one product in the cart → checkout; each page checked on the way. */
  async function turkishCartToPayment(page: Page, c: Customer, handle: string) {
    await page.goto(stack.storefront)
    await waitForView(page, "shop")
    await page.click('[data-testid="lang-tr"]')
    await waitOrError(page, `[data-testid="add-to-cart-${handle}"]`)
    await shopperSees(page, "the shop")
    await page.click(`[data-testid="add-to-cart-${handle}"]`)
    await page.locator('[data-testid="cart-count"]', { hasText: /^1$/ }).waitFor()
    await shopperSees(page, "the shop with the cart")
    await page.locator('[data-testid="checkout-button"]:not([disabled])').click()
    await page.waitForURL(/\/checkout$/)
    await waitForView(page, "checkout")
    await shopperSees(page, "the checkout's address step")
    await fillAddressAndShipping(page, c)
    await shopperSees(page, "the payment step")
  }

  it("cart → payment step → Quick Checkout card approved → back, confirmed: Turkish only, no id", async () => {
    await scenario("tr-card", async (page) => {
      const c = customer("tr-card")
      await turkishCartToPayment(page, c, "turk-kahvesi")
      await page.check('[data-testid="pay-checkout"]')
      await waitOrError(page, '[data-testid="checkout-pay-button"]')
      await shopperSees(page, "the payment step with Quick Checkout chosen")
      publish(await screenshot(page, "tr-payment-step"), "shopper-tr-payment.png")
      await Promise.all([
        page.waitForURL((u) => u.toString().startsWith(stack.emulator!), { timeout: 60_000 }),
        page.click('[data-testid="checkout-pay-button"]'),
      ])
      await page.locator("#approve").waitFor()
      // The service's own page is not ours to translate. It prints the signed `order_id` as its reference
      // (spec §4.2): the payment's short reference, which the description names too; no internal id anywhere.
      const reference = (await page.locator("#order-id").innerText()).trim()
      expect(reference).toMatch(/^OD-[0-9A-HJKMNP-TV-Z]{6}$/)
      const description = await page.locator("#description").innerText()
      expect(description.trim()).toBe(`Sipariş ödemesi ${reference}`)
      expect(description).not.toMatch(INTERNAL_ID)
      expect(await page.innerText("body")).not.toMatch(INTERNAL_ID)
      expect(await page.content()).not.toContain(`>payses_`)
      await page.click("#approve")
      await page.waitForURL(`${stack.storefront}/order/confirmed?**`, { timeout: 90_000 })
      await waitForView(page, "confirmation")
      await page.locator('[data-testid="order-payment-status"][data-status="captured"]').waitFor()
      await shopperSees(page, "the order confirmation")
      publish(await screenshot(page, "tr-checkout-confirmed"), "shopper-tr-checkout.png")
      const orderId = new URL(page.url()).searchParams.get("order_id")!
      await capturedOnce(admin, emulator, orderId, "pp_odeme-checkout_odeme")
      orders.card = orderId
    })
  })

  it("bank transfer → waiting page with IBAN, amount, #order number and deadline → confirmed: Turkish only, no id", async () => {
    await scenario("tr-transfer", async (page) => {
      const c = customer("tr-transfer")
      await turkishCartToPayment(page, c, "cay-bardagi-seti")
      await page.check('[data-testid="pay-transfer"]')
      await waitOrError(page, '[data-testid="bank-account"]')
      await page.selectOption('[data-testid="sandbox-result"]', "pending")
      await shopperSees(page, "the payment step with bank transfer chosen")
      await page.click('[data-testid="transfer-submit"]')
      await page.waitForURL(`${stack.storefront}/checkout/transfer?**`, { timeout: 60_000 })
      await waitForView(page, "transfer")
      await page.locator('[data-testid="transfer-status"][data-status="pending"]').waitFor()
      const orderId = new URL(page.url()).searchParams.get("order_id")!
      const sessionId = new URL(page.url()).searchParams.get("session_id")!
      const order = await admin.order(orderId)
      expect((await page.locator('[data-testid="transfer-iban"]').textContent())!.replace(/\s+/g, "")).toMatch(/^TR\d{24}$/)
      expect(await page.locator('[data-testid="transfer-reference"]').textContent()).toBe(`#${order.display_id}`)
      // tr-TR: "1.234,56 ₺" or "₺1.234,56"; the deadline as a Turkish date and time.
      expect(await page.locator("#view-transfer").innerText()).toMatch(/₺/)
      expect(await page.locator('[data-testid="transfer-deadline"]').textContent()).toMatch(
        /\d{1,2} (Ocak|Şubat|Mart|Nisan|Mayıs|Haziran|Temmuz|Ağustos|Eylül|Ekim|Kasım|Aralık) \d{4}.*\d{2}:\d{2}/
      )
      await shopperSees(page, "the transfer waiting page")
      publish(await screenshot(page, "tr-transfer-waiting"), "shopper-tr-transfer.png")

      const transfer = await eventually("the transfer at the emulator", async () =>
        emulator.transferOf(await admin.serviceOrderId(orderId, sessionId))
      )
      await emulator.post(`/transfers/${transfer.uuid}/settle`, { result: "successful" })
      await page.waitForURL(`${stack.storefront}/order/confirmed?**`, { timeout: 90_000 })
      await waitForView(page, "confirmation")
      await page.locator('[data-testid="order-payment-status"][data-status="captured"]').waitFor()
      await shopperSees(page, "the confirmation after the transfer")
      await screenshot(page, "tr-transfer-confirmed")
      await capturedOnce(admin, emulator, orderId, "pp_odeme-transfer_odeme")
      orders.transfer = orderId
    })
  })

  async function settle(page: Page) {
    await page.waitForLoadState("networkidle").catch(() => {})
    await page.waitForTimeout(500)
  }

  it("Turkish Admin: the order widget, the needs-attention list and Settings → Odeme", async () => {
    const orderId = orders.card
    if (!orderId) throw new Error("no order from the card scenario to open")
    const attentionEmail = `e2e-tr-attention-${Date.now().toString(36)}@odeme.test`
    await unknownOutcomeTransfer(store, emulator, attentionEmail)
    await adminWarm
    // Wide enough for the order page's side column to sit beside the main one (the widget's zone).
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: "en-GB", timezoneId: "Europe/Istanbul" })
    context.setDefaultTimeout(30_000)
    context.setDefaultNavigationTimeout(60_000)
    contexts.push(context)
    await inPage(
      context,
      "tr-admin",
      async (page) => {
        await page.goto(`${stack.admin}/login`, { timeout: 240_000 })
        await loginToAdmin(page)
        await chooseTurkish(page, stack.admin)

        await page.goto(`${stack.admin}/orders/${orderId}`, { timeout: 240_000 })
        const widget = page.locator('[data-testid="odeme-payment-widget"]')
        await widget.waitFor({ timeout: 150_000 })
        const payment = widget.locator('[data-testid="odeme-payment"]').first()
        await payment.waitFor()
        expect(await payment.getAttribute("data-state")).toBe("paid")
        await widget.evaluate((el) => el.scrollIntoView({ block: "start" }))
        await settle(page)
        const widgetText = await widget.innerText()
        expectTurkishOnly("the order widget", widgetText)
        expect(widgetText).not.toMatch(SERVICE_UUID)
        publish(await screenshot(page, "tr-admin-widget"), "admin-widget-tr.png")

        // The details: the customer's way back from the payment page is named as such, not as a notification.
        const card = await openPaymentDetails(page, payment)
        expectTurkishOnly("the card payment's details", card.text)
        expect(card.text).not.toMatch(SERVICE_UUID)
        const returns = card.drawer.locator('[data-testid="odeme-timeline-event"][data-code="received"][data-source="return"]')
        expect(await returns.count()).toBeGreaterThan(0)
        for (const line of await returns.allInnerTexts()) {
          expect(line).toContain("Müşteri ödeme sayfasından döndü")
          expect(line).not.toContain("Bildirim alındı")
        }
        await closePaymentDetails(page)

        // A bank transfer's details: the status the service was read with is no "last check" before a check.
        if (orders.transfer) {
          await page.goto(`${stack.admin}/orders/${orders.transfer}`)
          const transfer = page.locator('[data-testid="odeme-payment-widget"] [data-testid="odeme-payment"]').first()
          await transfer.waitFor({ timeout: 150_000 })
          const details = await openPaymentDetails(page, transfer)
          expectTurkishOnly("the transfer's details", details.text)
          expect(details.text).not.toMatch(SERVICE_UUID)
          expect(details.text).not.toMatch(NO_CHECK_COUNTED)
          await closePaymentDetails(page)
        }

        await page.goto(`${stack.admin}/settings/odeme`)
        const settings = page.locator('[data-testid="odeme-settings"]')
        await settings.waitFor({ timeout: 120_000 })
        const item = page.locator('[data-testid="odeme-attention-item"][data-code="creation_unknown"]').filter({ hasText: attentionEmail })
        await item.waitFor({ timeout: 60_000 })
        await settle(page)
        expectTurkishOnly("Settings → Odeme", await settings.innerText())
        // The card's notification arrived at this http://localhost address: the page says so, and what live needs,
        // rather than that the service cannot deliver here.
        expect(Number(await page.locator('[data-testid="odeme-health-24h"]').textContent())).toBeGreaterThan(0)
        const webhookNote = page.locator('[data-testid="odeme-warning"][data-code="webhook_sandbox_only"]')
        expect(await webhookNote.innerText()).toContain("Test (sandbox) modunda bildirimler")
        for (const code of ["webhook_not_https", "webhook_not_public", "webhook_not_reached"]) {
          expect(await page.locator(`[data-testid="odeme-warning"][data-code="${code}"]`).count()).toBe(0)
        }
        publish(await screenshot(page, "tr-admin-settings"), "admin-settings-tr.png")

        // Whose payment, how much and what to press, in one line.
        const who = (await item.locator('[data-testid="odeme-attention-who"]').innerText()).trim()
        expect(who.startsWith(`Deniz Aksoy · ${attentionEmail} · `)).toBe(true)
        expect(who).toMatch(/₺/)
        const section = page.locator('[data-testid="odeme-attention-section"]')
        await section.evaluate((el) => el.scrollIntoView({ block: "start" }))
        await settle(page)
        expectTurkishOnly("the needs-attention list", await section.innerText())
        publish(await screenshot(page, "tr-admin-attention"), "admin-attention-tr.png")

        // Ask Odeme now: one line in the toast, the answer in the item, above nothing it covers.
        const asked = await askOdemeFromItem(page, item)
        expect(asked.answer).not.toBe("")
        expectTurkishOnly("the item's answer", asked.answer)
        for (const toast of asked.toasts) {
          expect(toast.split("\n").filter((l) => l.trim())).toHaveLength(1)
          expect(toast).not.toContain(asked.answer)
          expectTurkishOnly("the toast", toast)
        }
        await screenshot(page, "tr-admin-attention-asked")
      },
      { consoleErrors: false }
    )
  }, 600_000)
})
