/**
 * One demo stack and one Chromium for a spec file, with the API clients its
 * assertions use next to the browser. Every scenario runs in a browser context
 * of its own (no cookies or cart shared); all of them are closed with the stack.
 */
import type { Browser, BrowserContext, Page } from "playwright-core"
import { AdminApi, EmulatorControl, StoreApi } from "./api"
import { launchChromium, newContext } from "./chromium"
import { inPage } from "./scenario"
import { startStack, type Stack } from "./stack"
import { clearFailureShots } from "./storefront"

export interface BrowserStack {
  stack: Stack
  browser: Browser
  admin: AdminApi
  store: StoreApi
  emulator: EmulatorControl
}

/** For beforeAll. A stack already started is stopped again if a later step fails (afterAll would not know it). */
export async function openBrowserStack(): Promise<BrowserStack> {
  if (!process.env.E2E_STACK_FILE) clearFailureShots()
  const stack = await startStack()
  try {
    if (!stack.emulator) throw new Error("the e2e tests need the emulator (unset ODEME_BASE_URL)")
    const admin = new AdminApi(stack)
    const store = new StoreApi(stack)
    const emulator = new EmulatorControl(stack.emulator)
    const browser = await launchChromium()
    return { stack, browser, admin, store, emulator }
  } catch (e) {
    await stack.stop()
    throw e
  }
}

/** For afterAll: whatever was opened, in reverse order. */
export async function closeBrowserStack({ stack, browser }: Partial<BrowserStack>, contexts: BrowserContext[]) {
  for (const c of contexts) await c.close().catch(() => {})
  await browser?.close().catch(() => {})
  await stack?.stop()
}

/** A page in a context of its own; on failure a screenshot `<name>-failed.png` and the page's console errors. */
export async function scenarioIn(browser: Browser, contexts: BrowserContext[], name: string, fn: (page: Page) => Promise<void>) {
  const context = await newContext(browser)
  contexts.push(context)
  await inPage(context, name, fn)
}
