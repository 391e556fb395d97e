import { pollUntil } from "../../scripts/lib/poll"

/**
 * Plays the customer's browser against the emulator's checkout pages with
 * plain HTTP (redirects followed by hand, so each hop can be asserted).
 */
export interface SignedForm {
  action: string
  method: string
  fields: Record<string, string>
}

async function post(url: string, fields: Record<string, string>) {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString(),
    redirect: "manual",
  })
  return { status: res.status, location: res.headers.get("location"), text: await res.text() }
}

/** Posts the signed form; returns the checkout page's URL. */
export async function openCheckout(form: SignedForm): Promise<string> {
  const res = await post(form.action, form.fields)
  if (res.status !== 303 || !res.location) throw new Error(`checkout refused the form: ${res.status} ${res.text.slice(0, 300)}`)
  return new URL(res.location, form.action).toString()
}

/** Presses one of the three sandbox buttons; returns where the service sends the browser. */
export async function payByCard(pageUrl: string, outcome: "approve" | "reject" | "insufficient"): Promise<string> {
  const res = await post(`${pageUrl}/complete`, { outcome })
  if (!res.location) throw new Error(`no redirect after ${outcome}: ${res.status} ${res.text.slice(0, 200)}`)
  return new URL(res.location, pageUrl).toString()
}

/** Chooses transfer on the page; returns the waiting page's URL. */
export async function chooseTransfer(pageUrl: string, senderName: string, bankId: number): Promise<string> {
  const res = await post(`${pageUrl}/transfer`, { sender_name: senderName, bank_id: String(bankId) })
  if (!res.location) throw new Error(`no redirect after choosing transfer: ${res.status} ${res.text.slice(0, 200)}`)
  return new URL(res.location, pageUrl).toString()
}

/** Follows a redirect target once (e.g. the plugin's return route) and returns status and Location. */
export async function follow(url: string): Promise<{ status: number; location: string | null; text: string }> {
  const res = await fetch(url, { redirect: "manual" })
  return { status: res.status, location: res.headers.get("location"), text: await res.text() }
}

/**
 * Polls `fn` until it returns a truthy value (scripts/lib/poll.js). The default
 * deadline leaves room for a loaded 2-core machine; a met condition returns at once.
 */
export function waitFor<T>(fn: () => Promise<T | undefined | null | false>, timeoutMs = 30_000, everyMs = 200): Promise<T> {
  return pollUntil(fn, { timeoutMs, intervalMs: everyMs })
}
