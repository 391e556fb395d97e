/**
 * Browser end-to-end: Debian's Chromium (playwright-core) against the demo
 * store started by `scripts/demo.js --ci` (plugin, Medusa + Admin, storefront,
 * emulator, PostgreSQL) in a fresh data directory and database.
 *
 * Every scenario ends with a screenshot in artifacts/e2e/<name>.png (and
 * <name>-failed.png when it fails). With UPDATE_DOCS_SCREENSHOTS=1 two are copied to docs/ for the README.
 */
import type { Browser, BrowserContext, Page } from "playwright-core"
import { loginToAdmin, warmUpAdmin } from "../support/admin"
import { eventually, paymentsOf, type AdminApi, type EmulatorControl, type StoreApi } from "../support/api"
import { closeBrowserStack, openBrowserStack, scenarioIn } from "../support/browser-stack"
import { describeWithChromium } from "../support/chromium"
import { assertCapturedOnce as capturedOnce } from "../support/payment-checks"
import type { Stack } from "../support/stack"
import { odemeReasonMessages } from "../../../src/storefront"
import {
  addToCartAndCheckout,
  customer,
  fillAddressAndShipping,
  payWithQuickCheckout,
  publish,
  screenshot,
  waitForConfirmation,
  waitForView,
  waitOrError,
} from "../support/storefront"

describeWithChromium("storefront, emulator and Admin in Chromium", () => {
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
    // `medusa develop` compiles the Admin (Vite) on its first visits, which takes minutes on 2 cores. The layer's
    // setup starts that compile early (support/global-stack.ts); it is waited for here, before the first journey:
    // beside it, on a loaded machine, the storefront's first requests took over 30 s (adding to the cart timed out).
    // Compiled already, this visit takes seconds.
    const warmed = await warmUpAdmin(browser, stack.admin, contexts).catch((e) => e)
    // A failure is the Admin journey's to report (below), not the storefront's.
    adminWarm = Promise.resolve(warmed)
  }, 10 * 60_000)

  afterAll(() => closeBrowserStack({ stack, browser }, contexts), 120_000)

  const scenario = (name: string, fn: (page: Page) => Promise<void>) => scenarioIn(browser, contexts, name, fn)
  const assertCapturedOnce = (orderId: string, provider: string) => capturedOnce(admin, emulator, orderId, provider)

  it("card, 3D approve: back on the storefront the order is confirmed; captured once (Admin API)", async () => {
    await scenario("card-approve", async (page) => {
      const c = customer("card")
      await addToCartAndCheckout(page, stack.storefront)
      await fillAddressAndShipping(page, c)
      await payWithQuickCheckout(page, stack.emulator!)
      expect(await page.locator("#amount").textContent()).toMatch(/\d+\.\d{2} TRY/)
      await page.click("#approve")
      const orderId = await waitForConfirmation(page, stack.storefront)
      await page.locator('[data-testid="order-payment-status"][data-status="captured"]').waitFor()
      expect(await page.locator('[data-testid="order-email"]').textContent()).toBe(c.email)
      publish(await screenshot(page, "card-approve"), "demo-checkout.png")

      const order = await assertCapturedOnce(orderId, "pp_odeme-checkout_odeme")
      expect(order.email).toBe(c.email)
      orders.card = orderId
    })
  })

  it("card, 3D reject and then insufficient balance: readable failure, back to the payment choice, no order", async () => {
    await scenario("card-declined", async (page) => {
      const c = customer("declined")
      const cartId = await addToCartAndCheckout(page, stack.storefront)
      await fillAddressAndShipping(page, c)
      // The return route passes status=failed and a reason code (never the service's text);
      // the storefront says with the plugin's text for that code why the payment failed and what to do.
      const attempts = [
        { button: "#reject", shot: "card-reject", reason: odemeReasonMessages.authentication_failed.en },
        { button: "#insufficient", shot: "card-insufficient", reason: odemeReasonMessages.insufficient_funds.en },
      ]
      for (const a of attempts) {
        await payWithQuickCheckout(page, stack.emulator!)
        await page.click(a.button)
        await page.waitForURL(`${stack.storefront}/checkout/return?**`)
        await page.locator('[data-testid="return-status"][data-status="failed"]').waitFor()
        expect(await page.locator("#return-status-text").textContent()).toBe("The payment failed.")
        expect(await page.locator('[data-testid="return-message"]').textContent()).toBe(a.reason)
        await screenshot(page, a.shot)
        await page.click('[data-testid="back-to-payment"]')
        await page.waitForURL(`${stack.storefront}/checkout?**`)
        await waitForView(page, "checkout")
        await page.locator('[data-testid="pay-checkout"]:not([disabled])').waitFor()
        // The checkout page says why the customer is back.
        expect(await page.locator('[data-testid="error-banner"]').textContent()).toContain(a.reason)
      }
      expect(await admin.ordersByEmail(c.email)).toEqual([])
      const cart = await store.cart(cartId)
      expect(cart.completed_at).toBeNull()
    })
  })

  it("transfer on the Quick Checkout page: waiting page, sandbox approval, back → confirmed", async () => {
    await scenario("checkout-transfer", async (page) => {
      const c = customer("qc-transfer")
      await addToCartAndCheckout(page, stack.storefront, "lokum-kutusu")
      await fillAddressAndShipping(page, c)
      await payWithQuickCheckout(page, stack.emulator!)
      await page.fill("#sender_name", `${c.firstName} ${c.lastName}`)
      await page.selectOption("#bank_id", { index: 0 })
      await page.click("#transfer")
      await page.locator("#waiting").waitFor()
      expect(await page.locator("#iban").textContent()).toMatch(/TR\d{2}/)
      expect(await page.locator("#sender").textContent()).toBe(`${c.firstName} ${c.lastName}`)
      await screenshot(page, "checkout-transfer-waiting")
      await page.click("#transfer-approve")
      const orderId = await waitForConfirmation(page, stack.storefront)
      await page.locator('[data-testid="order-payment-status"][data-status="captured"]').waitFor()
      await screenshot(page, "checkout-transfer")
      await assertCapturedOnce(orderId, "pp_odeme-checkout_odeme")
    })
  })

  it("bank transfer through the API: waiting page with the IBAN, approval at the service → confirmed", async () => {
    await scenario("api-transfer", async (page) => {
      const c = customer("transfer")
      await addToCartAndCheckout(page, stack.storefront, "cay-bardagi-seti")
      await fillAddressAndShipping(page, c)
      await page.check('[data-testid="pay-transfer"]')
      await waitOrError(page, '[data-testid="bank-account"]')
      expect(await page.inputValue('[data-testid="payer-name"]')).toBe(`${c.firstName} ${c.lastName}`)
      await page.selectOption('[data-testid="sandbox-result"]', "pending")
      await page.click('[data-testid="transfer-submit"]')
      await page.waitForURL(`${stack.storefront}/checkout/transfer?**`, { timeout: 60_000 })
      await waitForView(page, "transfer")
      const url = new URL(page.url())
      const sessionId = url.searchParams.get("session_id")!
      const orderId = url.searchParams.get("order_id")!
      expect(sessionId).toMatch(/^payses_/)
      await page.locator('[data-testid="transfer-status"][data-status="pending"]').waitFor()
      const iban = (await page.locator('[data-testid="transfer-iban"]').textContent()) || ""
      expect(iban.replace(/\s+/g, "")).toMatch(/^TR\d{24}$/)
      // The shopper writes the order number, never an internal id; the deadline is a Turkish date.
      const waitingOrder = await admin.order(orderId)
      expect(await page.locator('[data-testid="transfer-reference"]').textContent()).toBe(`#${waitingOrder.display_id}`)
      expect(await page.locator("#view-transfer").textContent()).not.toMatch(/payses_/)
      expect(await page.locator('[data-testid="transfer-deadline"]').textContent()).toMatch(/\d{4} .*\d{2}:\d{2}/)
      await screenshot(page, "api-transfer-waiting")

      // The order exists and waits for the money.
      const waiting = await admin.order(orderId)
      expect(waiting.payment_status).not.toBe("captured")
      expect(paymentsOf(waiting).captures).toHaveLength(0)

      // The money arrives: the service approves (control API); webhook or poller → captured.
      const transfer = await eventually("the transfer at the emulator", async () =>
        emulator.transferOf(await admin.serviceOrderId(orderId, sessionId))
      )
      await emulator.post(`/transfers/${transfer.uuid}/settle`, { result: "successful" })
      await page.waitForURL(`${stack.storefront}/order/confirmed?**`, { timeout: 90_000 })
      await waitForView(page, "confirmation")
      expect(new URL(page.url()).searchParams.get("order_id")).toBe(orderId)
      await page.locator('[data-testid="order-payment-status"][data-status="captured"]').waitFor()
      await screenshot(page, "api-transfer")
      await assertCapturedOnce(orderId, "pp_odeme-transfer_odeme")
      orders.transfer = orderId
    })
  })

  it("the form is signed again right before posting: a stale session form is refused, the posted one is fresh", async () => {
    const before = await emulator.get<{ signatureMaxAgeSeconds?: number }>("/config")
    const maxAge = 3
    try {
      await scenario("fresh-form", async (page) => {
        const c = customer("fresh-form")
        const cartId = await addToCartAndCheckout(page, stack.storefront)
        await fillAddressAndShipping(page, c)

        // The session exists before the customer pays, as if created long ago.
        const cart = await store.cart(cartId)
        let pcId = cart.payment_collection?.id
        if (!pcId) pcId = (await store.request("POST", "/store/payment-collections", { cart_id: cartId })).payment_collection.id
        const { payment_collection } = await store.request("POST", `/store/payment-collections/${pcId}/payment-sessions`, {
          provider_id: "pp_odeme-checkout_odeme",
        })
        const session = payment_collection.payment_sessions.find((s: any) => s.provider_id === "pp_odeme-checkout_odeme")
        const stored = session.data.form
        const storedTs = Number(stored.fields.ts)
        expect(Math.abs(storedTs - Date.now() / 1000)).toBeLessThan(60)
        expect(stored.fields.order_id).toBe(session.data.shopper_reference)

        // The service now refuses signatures older than `maxAge` s (instead of 30 min); let the stored one age.
        await emulator.post("/config", { signatureMaxAgeSeconds: maxAge })
        await eventually("the stored form to be stale", async () => Date.now() / 1000 > storedTs + maxAge + 1.2, 15_000, 100)
        const stale = await fetch(stored.action, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams(stored.fields).toString(),
          redirect: "manual",
        })
        expect(stale.status).toBe(400)
        expect(await stale.text()).toMatch(/Signature expired/)

        // The storefront asks for a fresh form and posts that one: intercept it on its way.
        let posted: URLSearchParams | null = null
        await page.route("**/checkout/quick", async (route) => {
          posted = new URLSearchParams(route.request().postData() || "")
          await route.continue()
        })
        await payWithQuickCheckout(page, stack.emulator!)
        const fields = posted as URLSearchParams | null
        expect(fields).not.toBeNull()
        expect(fields!.get("order_id")).toBe(session.data.shopper_reference)
        const ts = Number(fields!.get("ts"))
        expect(Math.abs(ts - Date.now() / 1000)).toBeLessThan(60)
        expect(ts).toBeGreaterThan(storedTs)
        expect(fields!.get("signature")).not.toBe(stored.fields.signature)
        await page.click("#approve")
        await waitForConfirmation(page, stack.storefront)
        await screenshot(page, "fresh-form")
      })
    } finally {
      await emulator.post("/config", { signatureMaxAgeSeconds: before.signatureMaxAgeSeconds ?? 1800 })
    }
  })

  // The first visit of the Admin under `medusa develop` makes Vite compile it: minutes on 2 cores.
  it("Admin: the order page shows the Odeme payment widget with the provider and the paid state", async () => {
    const orderId = orders.transfer ?? orders.card
    if (!orderId) throw new Error("no order from the card or transfer scenario to open")
    await adminWarm
    await scenario("admin-widget", async (page) => {
      await page.goto(`${stack.admin}/login`)
      await loginToAdmin(page)
      await page.goto(`${stack.admin}/orders/${orderId}`)
      const widget = page.locator('[data-testid="odeme-payment-widget"]')
      await widget.waitFor({ timeout: 150_000 })
      const payment = widget.locator('[data-testid="odeme-payment"]').first()
      await payment.waitFor()
      expect(await payment.getAttribute("data-state")).toBe("paid")
      const provider = (await payment.locator('[data-testid="odeme-provider"]').textContent()) || ""
      expect(provider).toMatch(orderId === orders.transfer ? /bank transfer/i : /Quick Checkout/i)
      expect(await payment.locator('[data-testid="odeme-status-badge"]').getAttribute("data-state")).toBe("paid")
      await widget.evaluate((el) => el.scrollIntoView({ block: "start" }))
      // Let the page settle (fonts, late widgets) before the picture.
      await page.waitForLoadState("networkidle").catch(() => {})
      publish(await screenshot(page, "admin-widget"), "admin-widget.png")
    })
  }, 480_000)
})
