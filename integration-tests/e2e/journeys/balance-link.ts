/**
 * Balance payment links in Chromium: an order edited in Admin owes money,
 * the customer opens the link Admin's "Copy payment link" gives
 * (`{storefront}/payment-collection/{id}?order_id={order}`, built here as
 * the dashboard builds it) on the demo storefront, and pays the balance with
 * Quick Checkout, then a second balance with a bank transfer. Each time the
 * order owes 0, with one capture per payment collection.
 */
import type { Browser, BrowserContext, Page } from "playwright-core"
import { eventually, type AdminApi, type EmulatorControl, type StoreApi } from "../support/api"
import { closeBrowserStack, openBrowserStack, scenarioIn } from "../support/browser-stack"
import { describeWithChromium } from "../support/chromium"
import type { Stack } from "../support/stack"
import { screenshot, waitForView, waitOrError } from "../support/storefront"
import { expectTurkishOnly } from "../support/turkish"

describeWithChromium("balance payment links in Chromium", () => {
  let stack: Stack
  let browser: Browser
  let admin: AdminApi
  let store: StoreApi
  let emulator: EmulatorControl
  let orderId: string
  const contexts: BrowserContext[] = []

  beforeAll(async () => {
    ;({ stack, browser, admin, store, emulator } = await openBrowserStack())
    orderId = await paidOrder()
  }, 10 * 60_000)

  afterAll(() => closeBrowserStack({ stack, browser }, contexts), 120_000)

  const scenario = (name: string, fn: (page: Page) => Promise<void>) => scenarioIn(browser, contexts, name, fn)

  /** A TRY order paid at once (a sandbox transfer the service approves immediately), placed through the Store API. */
  async function paidOrder(): Promise<string> {
    const email = `e2e-balance-${Date.now().toString(36)}@odeme.test`
    const cartId = await store.transferCart({ email, firstName: "Ayşe", lastName: "Yılmaz", sandboxResult: "successful" })
    const done = await store.request("POST", `/store/carts/${cartId}/complete`)
    if (done.type !== "order") throw new Error(`the cart did not complete: ${JSON.stringify(done).slice(0, 300)}`)
    return done.order.id as string
  }

  async function owed(): Promise<{ pending: number; collections: any[] }> {
    const { order } = await admin.get(
      `/admin/orders/${orderId}?fields=id,*summary,*payment_collections,*payment_collections.payments,*payment_collections.payments.captures`
    )
    return { pending: Number(order.summary.pending_difference), collections: order.payment_collections }
  }

  /** Admin's order edit adding one more item, confirmed: returns the payment link Admin copies. */
  async function editAndCopyLink(): Promise<{ link: string; collectionId: string }> {
    const { order } = await admin.get(`/admin/orders/${orderId}?fields=id,*items`)
    const variantId = order.items[0].variant_id
    await admin.post("/admin/order-edits", { order_id: orderId })
    await admin.post(`/admin/order-edits/${orderId}/items`, { items: [{ variant_id: variantId, quantity: 1 }] })
    await admin.post(`/admin/order-edits/${orderId}/request`)
    await admin.post(`/admin/order-edits/${orderId}/confirm`)
    const { pending, collections } = await owed()
    expect(pending).toBeGreaterThan(0)
    const open = collections.filter((pc: any) => pc.status === "not_paid")
    expect(open).toHaveLength(1)
    // As @medusajs/dashboard's "Copy payment link" builds it.
    return { link: `${stack.storefront}/payment-collection/${open[0].id}?order_id=${orderId}`, collectionId: open[0].id }
  }

  async function expectSettled() {
    const { collections } = await eventually(
      "the order owes 0",
      async () => {
        const o = await owed()
        return o.pending === 0 ? o : null
      },
      60_000,
      500
    )
    for (const pc of collections) {
      expect(pc.status).toBe("completed")
      expect(pc.payments).toHaveLength(1)
      expect(pc.payments[0].captures).toHaveLength(1)
    }
  }

  async function openLink(page: Page, link: string) {
    await page.goto(link)
    await waitForView(page, "balance")
    await waitOrError(page, '[data-testid="balance-amount"]:not(:empty)')
    // Turkish by default: the amount reads tr-TR (₺1.234,56 or 1.234,56 ₺), the order number is Medusa's display id.
    expect(await page.locator('[data-testid="balance-amount"]').textContent()).toMatch(/₺/)
    expect(await page.locator('[data-testid="balance-order"]').textContent()).toMatch(/^#\d+$/)
    expect(await page.locator("#view-balance").innerText()).not.toMatch(/payses_|pay_col_|order_/)
    expectTurkishOnly("the balance page", await page.innerText("body"))
  }

  it("Quick Checkout: the copied link shows what is owed, pays it on the service's page, comes back confirmed", async () => {
    const { link, collectionId } = await editAndCopyLink()
    await scenario("balance-checkout", async (page) => {
      await openLink(page, link)
      await screenshot(page, "balance-link")
      await Promise.all([
        page.waitForURL((u) => u.toString().startsWith(stack.emulator!), { timeout: 60_000 }),
        page.click('[data-testid="balance-pay-button"]'),
      ])
      await page.locator("#approve").waitFor()
      await page.click("#approve")
      await page.waitForURL(`${stack.storefront}/payment-collection/${collectionId}?**`, { timeout: 90_000 })
      await page.locator('[data-testid="balance-status"][data-status="paid"]').waitFor({ timeout: 90_000 })
      expectTurkishOnly("balance-checkout-paid", await page.innerText("body"))
      await screenshot(page, "balance-checkout-paid")
    })
    await expectSettled()
  })

  it("bank transfer: the copied link shows the IBAN, the approval at the service is captured onto the same order", async () => {
    const { link } = await editAndCopyLink()
    await scenario("balance-transfer", async (page) => {
      await openLink(page, link)
      await page.check('[data-testid="balance-pay-transfer"]')
      await waitOrError(page, '#balance-bank-list input[name="bank_id"]')
      await page.fill('[data-testid="balance-payer-name"]', "Ayşe Yılmaz")
      await page.click('[data-testid="balance-pay-button"]')
      await waitOrError(page, '[data-testid="balance-transfer-iban"]:not(:empty)')
      expect(await page.locator('[data-testid="balance-transfer-iban"]').textContent()).toMatch(/^TR\d{2}/)
      // The deadline in the shopper's language: a Turkish month name and a time.
      expect(await page.locator('[data-testid="balance-transfer-deadline"]').textContent()).toMatch(
        /(Ocak|Şubat|Mart|Nisan|Mayıs|Haziran|Temmuz|Ağustos|Eylül|Ekim|Kasım|Aralık).*\d{1,2}:\d{2}/
      )
      expect(await page.locator('[data-testid="balance-transfer-reference"]').textContent()).toMatch(/^#\d+$/)
      expectTurkishOnly("balance-transfer-waiting", await page.innerText("body"))
      await screenshot(page, "balance-transfer-waiting")
      await page.locator('[data-testid="balance-simulate-approval"]').click()
      await page.locator('[data-testid="balance-status"][data-status="paid"]').waitFor({ timeout: 90_000 })
      expectTurkishOnly("balance-transfer-paid", await page.innerText("body"))
      await screenshot(page, "balance-transfer-paid")
    })
    await expectSettled()
  })
})
