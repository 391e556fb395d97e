/**
 * What the plugin's Admin shows a merchant, read as the merchant reads it:
 * the payment's details drawer, and "Ask Odeme now" on a needs-attention item
 * (a one-line toast, the answer in the item).
 */
import type { Locator, Page } from "playwright-core"

/** A service payment's uuid, whole or cut ("2de2c281…"): technical, so only under Technical details. */
export const SERVICE_UUID = /\b[0-9a-f]{8}(?:-[0-9a-f]{4}){3}-[0-9a-f]{12}\b|\b[0-9a-f]{8}…/i

/** A status line that counts checks before there was one ("(0 checks so far)", "şimdiye kadar 0 kontrol"). */
export const NO_CHECK_COUNTED = /\(0 checks? so far\)|şimdiye kadar 0 kontrol/

/** Opens a payment card's details drawer; its visible text (collapsed Technical details are not in it). */
export async function openPaymentDetails(page: Page, payment: Locator): Promise<{ drawer: Locator; text: string }> {
  await payment.locator('[data-testid="odeme-details-open"]').click()
  const drawer = page.locator('[data-testid="odeme-details"]')
  await drawer.waitFor()
  await drawer.locator('[data-testid="odeme-timeline"], [data-testid="odeme-timeline-empty"]').first().waitFor()
  return { drawer, text: await drawer.innerText() }
}

export async function closePaymentDetails(page: Page) {
  await page.keyboard.press("Escape")
  await page.locator('[data-testid="odeme-details"]').waitFor({ state: "detached" })
}

/** Presses an item's "Ask Odeme now": the toasts' texts then, and the answer the item now shows. */
export async function askOdemeFromItem(page: Page, item: Locator): Promise<{ toasts: string[]; answer: string }> {
  const toasts = page.locator("[data-sonner-toast]")
  const before = await toasts.count()
  await item.locator('[data-testid="odeme-attention-check"]').click()
  const answer = item.locator('[data-testid="odeme-attention-check-result"]')
  await answer.waitFor({ timeout: 60_000 })
  await page.waitForFunction((n) => document.querySelectorAll("[data-sonner-toast]").length > n, before, { timeout: 10_000 })
  return { toasts: (await toasts.allInnerTexts()).map((t) => t.trim()), answer: (await answer.innerText()).trim() }
}
