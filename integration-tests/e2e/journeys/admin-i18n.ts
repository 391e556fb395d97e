/**
 * The plugin's Admin in the admin user's language: English by default, and
 * Turkish once the user picks Türkçe in Medusa's profile (Profile → Edit →
 * Language). Medusa 2.21's dashboard keeps that choice in the browser
 * (i18next's `lng` cookie and localStorage), so each language gets a browser
 * context of its own.
 *
 * Screenshots of the order widget and Settings → Odeme in both languages go
 * to artifacts/e2e/admin-i18n-{widget,settings-top,settings}-{en,tr}.png
 * (with UPDATE_DOCS_SCREENSHOTS=1 the English widget and settings page are
 * copied to docs/ for docs/admin.md, so they cannot go stale; the Turkish ones
 * are taken by journeys/turkish.ts).
 */
import type { Browser, BrowserContext, Page } from "playwright-core"
import { eventually, unknownOutcomeTransfer, type EmulatorControl, type StoreApi } from "../support/api"
import { chooseTurkish, loginToAdmin } from "../support/admin"
import { closePaymentDetails, NO_CHECK_COUNTED, openPaymentDetails, SERVICE_UUID } from "../support/admin-reading"
import { closeBrowserStack, openBrowserStack } from "../support/browser-stack"
import { describeWithChromium } from "../support/chromium"
import { inPage } from "../support/scenario"
import type { Stack } from "../support/stack"
import { publish, screenshot } from "../support/storefront"

/** Strings each language must show (from src/admin/i18n/json). */
const EXPECTED = {
  en: {
    provider: "Odeme bank transfer",
    state: "Waiting for the transfer",
    checkNow: "Ask Odeme now",
    unchanged: "Nothing changed",
    stillWaiting: "Still waiting: the transfer has not arrived yet.",
    settingsTitle: "Odeme payments",
    webhook: "Webhook URL",
    testConnection: "Test connection",
    connectionOk: "The connection works.",
    attention: "Needs attention",
    unknownOutcome: "Creating the bank transfer got no clear answer",
    /** Test connection's bank line: the groups, and (captured) the accounts checkout lists. */
    bankLine: /OK: \d+ bank groups?, (\d+) accounts? offered at checkout$/,
  },
  tr: {
    provider: "Odeme havale/EFT",
    state: "Havale bekleniyor",
    checkNow: "Odeme'ye şimdi sor",
    unchanged: "Değişiklik yok",
    stillWaiting: "Hâlâ bekleniyor: havale henüz gelmedi.",
    settingsTitle: "Odeme ödemeleri",
    webhook: "Webhook adresi",
    testConnection: "Bağlantıyı test et",
    connectionOk: "Bağlantı çalışıyor.",
    attention: "İlgilenilmesi gerekenler",
    unknownOutcome: "Havale oluşturma isteğine net bir yanıt gelmedi",
    bankLine: /Tamam: \d+ banka grubu, ödeme adımında (\d+) banka hesabı sunuluyor$/,
  },
} as const

describeWithChromium("the plugin's Admin in English and Turkish", () => {
  let stack: Stack
  let browser: Browser
  let store: StoreApi
  let emulator: EmulatorControl
  let orderId: string
  const contexts: BrowserContext[] = []

  beforeAll(async () => {
    ;({ stack, browser, store, emulator } = await openBrowserStack())
    orderId = await awaitingTransferOrder()
    await unknownOutcomeTransfer(store, emulator, `e2e-i18n-${Date.now().toString(36)}@odeme.test`)
  }, 10 * 60_000)

  afterAll(() => closeBrowserStack({ stack, browser }, contexts), 120_000)

  /** A bank-transfer order still waiting for the money. */
  async function awaitingTransferOrder(): Promise<string> {
    const email = `e2e-i18n-${Date.now().toString(36)}@odeme.test`
    const cartId = await store.transferCart({ email, firstName: "Ayşe", lastName: "Yılmaz", sandboxResult: "pending" })
    // The stack is the layer's: other journeys' transfers are there too.
    const before = (await emulator.get<{ result: any[] }>("/transfers")).result.length
    const done = await store.request("POST", `/store/carts/${cartId}/complete`)
    if (done.type !== "order") throw new Error(`the cart did not complete: ${JSON.stringify(done).slice(0, 300)}`)
    await eventually("the transfer at the emulator", async () => (await emulator.get<{ result: any[] }>("/transfers")).result.length > before)
    return done.order.id as string
  }

  async function login(page: Page) {
    // `medusa develop` compiles the Admin (Vite) on the first visit: minutes on 2 cores.
    await page.goto(`${stack.admin}/login`, { timeout: 240_000 })
    await loginToAdmin(page)
  }

  async function inLanguage(lng: "en" | "tr", fn: (page: Page) => Promise<void>) {
    // Wide enough for the order page's side column to sit beside the main one (the widget's zone).
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: "en-GB", timezoneId: "Europe/Istanbul" })
    context.setDefaultTimeout(30_000)
    context.setDefaultNavigationTimeout(60_000)
    contexts.push(context)
    await inPage(
      context,
      `admin-i18n-${lng}`,
      async (page) => {
        await login(page)
        if (lng === "tr") await chooseTurkish(page, stack.admin)
        await fn(page)
      },
      { consoleErrors: false }
    )
  }

  async function settle(page: Page) {
    await page.waitForLoadState("networkidle").catch(() => {})
    await page.waitForTimeout(500)
  }

  for (const lng of ["en", "tr"] as const) {
    const words = EXPECTED[lng]

    it(`order widget and Settings → Odeme in ${lng === "en" ? "English" : "Turkish"}`, async () => {
      await inLanguage(lng, async (page) => {
        await page.goto(`${stack.admin}/orders/${orderId}`, { timeout: 240_000 })
        const widget = page.locator('[data-testid="odeme-payment-widget"]')
        await widget.waitFor({ timeout: 150_000 })
        const payment = widget.locator('[data-testid="odeme-payment"]').first()
        await payment.waitFor()
        expect(await payment.getAttribute("data-state")).toBe("awaiting_transfer")
        expect((await payment.locator('[data-testid="odeme-provider"]').textContent())?.trim()).toBe(words.provider)
        expect((await payment.locator('[data-testid="odeme-status-badge"]').textContent())?.trim()).toBe(words.state)
        expect((await payment.locator('[data-testid="odeme-check-now"]').textContent())?.trim()).toBe(words.checkNow)
        expect(await payment.locator('[data-testid="odeme-iban"]').textContent()).toMatch(/^TR\d{2}/)
        await widget.evaluate((el) => el.scrollIntoView({ block: "start" }))
        await settle(page)
        // Raw codes and internal ids only under the collapsed "Technical details" (not rendered, so not in innerText).
        expect(await widget.innerText()).not.toMatch(/payses_|pending_authorization|awaiting_transfer|sale_status|navigation_only|check failed/)
        expect(await widget.innerText()).not.toMatch(SERVICE_UUID)
        const shot = await screenshot(page, `admin-i18n-widget-${lng}`)
        // The Turkish pictures in docs/ come from journeys/turkish.ts, which also checks them for English and ids.
        if (lng === "en") publish(shot, "admin-widget.png")

        // The details: no uuid, and no "last check" counting none before a check.
        const details = await openPaymentDetails(page, payment)
        expect(details.text).not.toMatch(SERVICE_UUID)
        expect(details.text).not.toMatch(NO_CHECK_COUNTED)
        await closePaymentDetails(page)

        // Check now: the service still waits for the money, said in the user's language: the toast names it in
        // one line, the card says it.
        await payment.locator('[data-testid="odeme-check-now"]').click()
        await page.locator("[data-sonner-toast]").getByText(words.unchanged, { exact: true }).first().waitFor({ timeout: 60_000 })
        const answer = payment.locator('[data-testid="odeme-check-result"]')
        await answer.waitFor({ timeout: 10_000 })
        expect((await answer.innerText()).trim()).toBe(words.stillWaiting)
        for (const toast of await page.locator("[data-sonner-toast]").allInnerTexts()) expect(toast).not.toContain(words.stillWaiting)

        await page.goto(`${stack.admin}/settings/odeme`)
        const settings = page.locator('[data-testid="odeme-settings"]')
        await settings.waitFor({ timeout: 120_000 })
        await settings.getByText(words.settingsTitle, { exact: true }).waitFor()
        await settings.getByText(words.webhook, { exact: true }).waitFor()
        expect(await page.locator('[data-testid="odeme-webhook-url"]').textContent()).toBe(`${stack.backend}/odeme/webhook`)
        expect(await page.locator('[data-testid="odeme-mode-badge"]').getAttribute("data-mode")).toBe("sandbox")
        expect(await page.locator('[data-testid="odeme-warning"][data-code="api_ip_quick_checkout"]').textContent()).toContain("0.0.0.0")
        await settings.getByText(words.attention, { exact: true }).waitFor()
        const item = page.locator('[data-testid="odeme-attention-item"][data-code="creation_unknown"]').first()
        await item.waitFor({ timeout: 60_000 })
        expect((await item.locator('[data-testid="odeme-attention-title"]').textContent())?.trim()).toBe(words.unknownOutcome)
        expect((await item.locator('[data-testid="odeme-attention-check"]').textContent())?.trim()).toBe(words.checkNow)
        expect(Number(await page.locator('[data-testid="odeme-attention-count"]').textContent())).toBeGreaterThanOrEqual(1)
        await settle(page)
        const top = await screenshot(page, `admin-i18n-settings-top-${lng}`)
        if (lng === "en") publish(top, "admin-settings.png")

        const test = page.locator('[data-testid="odeme-test-connection"]')
        expect((await test.textContent())?.trim()).toBe(words.testConnection)
        await test.click()
        const result = page.locator('[data-testid="odeme-connection-result"]')
        await result.waitFor({ timeout: 60_000 })
        expect(await result.getAttribute("data-ok")).toBe("true")
        await result.getByText(words.connectionOk, { exact: true }).waitFor()
        // The bank line counts what checkout lists: the accounts, beside the groups.
        const { bank_groups } = await store.request<{ bank_groups: Array<{ accounts: unknown[] }> }>("GET", "/store/odeme/banks")
        const bankLine = (await result.locator('[data-testid="odeme-connection-check"][data-check="bank_groups"]').innerText())
          .replace(/\s+/g, " ")
          .trim()
        const accounts = words.bankLine.exec(bankLine)
        if (!accounts) throw new Error(`Test connection's bank line reads ${JSON.stringify(bankLine)}`)
        expect(Number(accounts[1])).toBe(bank_groups.reduce((n, g) => n + g.accounts.length, 0))
        await page.locator('[data-testid="odeme-connection-result"]').evaluate((el) => el.scrollIntoView({ block: "start" }))
        await settle(page)
        await screenshot(page, `admin-i18n-settings-${lng}`)
      })
    }, 600_000)
  }
})
