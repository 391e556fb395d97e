import type OdemeModuleService from "../../modules/odeme/service"
import type { StoreResult } from "../../modules/odeme/service"
import type { NotificationInput } from "../../modules/odeme/types"
import { MAX_OPEN_GENERIC_WEBHOOKS, parseWebhook, takesUp, type WebhookIntake } from "../../lib/webhook-intake"

/** Stores a checked webhook once, in one statement that also checks the reference is one of this store's payments. */
export async function storeWebhook(
  odeme: OdemeModuleService,
  input: NotificationInput,
  store: (input: NotificationInput) => Promise<StoreResult> = (i) => odeme.storeNotification(i)
): Promise<Exclude<WebhookIntake, { kind: "invalid" | "bounded" }>> {
  const stored = await store(input)
  if (!stored) return { kind: "stray" }
  const { row, duplicate } = stored
  return { kind: "stored", row, duplicate, process: takesUp(row, duplicate) }
}

/**
 * Takes one webhook into the inbox: checks it, then stores it. Used by the
 * providers as a safety net when a merchant pointed the service at Medusa's
 * generic /hooks/payment route; the plugin's own route runs the two steps
 * itself so that junk never counts as ingest.
 *
 * Medusa's route answers before the plugin sees the body, so it cannot be
 * told apart from junk there: the rows a session has waiting are bounded
 * instead. Forged copies are refused by verify within seconds, so a session
 * rarely has more than a few open; a genuine copy stored before a flood is
 * among them. One turned away (only while someone floods that session with
 * forged copies) is found by the customer's return or, for an API transfer,
 * the poller: Medusa has answered for it, so the service has no reason to
 * deliver it again.
 */
export async function takeWebhook(odeme: OdemeModuleService, body: unknown, rawBody?: Buffer | string | null): Promise<WebhookIntake> {
  const parsed = parseWebhook(body, rawBody)
  if (parsed.kind === "invalid") return parsed
  // The rows are the session's, whichever way the service named it (its reference, or the id of an older session).
  const sessionId = (await odeme.sessionOfOrderId(parsed.input.session_id!)) ?? parsed.input.session_id!
  if ((await odeme.countOpenWebhooks(sessionId, MAX_OPEN_GENERIC_WEBHOOKS)) >= MAX_OPEN_GENERIC_WEBHOOKS) {
    return {
      kind: "bounded",
      message: `session ${sessionId} already has ${MAX_OPEN_GENERIC_WEBHOOKS} notifications waiting to be verified`,
    }
  }
  // Marked, so Settings → Odeme can tell the merchant the URL in the merchant panel is Medusa's, not the plugin's.
  const input = { ...parsed.input, payload: { ...parsed.input.payload, medusa_hook: true } }
  // Medusa has answered 200 already: the route's flood bounds would turn this one away, with no 503 to have it delivered again.
  return storeWebhook(odeme, input, (i) => odeme.storeNotificationUnbounded(i))
}
