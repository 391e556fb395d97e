/**
 * One demo stack for the whole e2e layer (jest's globalSetup/globalTeardown of
 * the e2e project). Each browser file used to start a stack of its own, and
 * `medusa develop` compiled the Admin again for each.
 *
 * The stack starts in the background: setup returns at once, so the other
 * layers' files run while it builds, migrates and seeds; a browser file waits
 * for the file this writes once the stack is ready (see startStack).
 *
 * The files share the store, so a scenario makes its own cart, customer and
 * order and never counts what others may have left.
 */
import fs from "node:fs"
import os from "node:os"
import path from "node:path"
import type { Browser, BrowserContext } from "playwright-core"
import { warmUpAdmin } from "./admin"
import { chromiumFound, launchChromium } from "./chromium"
import { startStack, type Stack } from "./stack"
import { clearFailureShots } from "./storefront"

/** Kept on globalThis, not in this module: jest may load setup and teardown as two instances of it. */
type Shared = { starting: Promise<Stack | null>; warmUp: WarmUp; file: string }
const KEY = "__odemeE2eStack"

export async function setup(): Promise<void> {
  // Without Chromium every file is skipped: no stack. A stack given by hand is the developer's.
  if (!chromiumFound || process.env.E2E_STACK) return
  clearFailureShots()
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "odeme-e2e-stack-")), "stack.json")
  // Written whole, then renamed: a browser file waiting for it never reads half of it.
  const write = (content: object) => {
    fs.writeFileSync(`${file}.tmp`, JSON.stringify(content))
    fs.renameSync(`${file}.tmp`, file)
  }
  const starting = startStack({ timeoutMs: 8 * 60_000 }).then(
    (stack) => {
      const { stop: _stop, output: _output, ...info } = stack
      write(info)
      return stack
    },
    (err: Error) => {
      write({ error: err.message })
      return null
    }
  )
  const warmUp: WarmUp = { stopped: false }
  warmUp.done = starting.then((stack) => (stack ? warmAdminInBackground(stack.admin, warmUp) : undefined))
  ;(globalThis as Record<string, unknown>)[KEY] = { starting, warmUp, file } satisfies Shared
  process.env.E2E_STACK_FILE = file
}

export async function teardown(): Promise<void> {
  const shared = (globalThis as Record<string, unknown>)[KEY] as Shared | undefined
  if (!shared) return
  delete process.env.E2E_STACK_FILE
  // A visit still under way ends with its browser: the stack is about to stop.
  shared.warmUp.stopped = true
  await shared.warmUp.browser?.close().catch(() => {})
  await shared.warmUp.done
  await (await shared.starting)?.stop()
  fs.rmSync(path.dirname(shared.file), { recursive: true, force: true })
}

/**
 * `medusa develop` compiles the Admin (Vite) on its first visits. Visiting it
 * as soon as the stack is ready lets that compile use the cores the HTTP files
 * leave idle while they wait on timers and polls, instead of running beside the
 * browser file's first journeys. A failure here is not the tests' concern: the
 * browser file warms the Admin up again and its journeys say what is wrong.
 */
type WarmUp = { browser?: Browser; stopped: boolean; done?: Promise<void> }

async function warmAdminInBackground(adminUrl: string, warmUp: WarmUp): Promise<void> {
  const contexts: BrowserContext[] = []
  try {
    warmUp.browser = await launchChromium()
    if (warmUp.stopped) return
    await warmUpAdmin(warmUp.browser, adminUrl, contexts)
  } catch {
    // see above
  } finally {
    await warmUp.browser?.close().catch(() => {})
  }
}
