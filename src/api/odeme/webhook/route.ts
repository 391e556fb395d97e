import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import type { Logger } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { NOTIFICATION_EVENT } from "../../../lib/notification-event"
import { withDeadline } from "../../../lib/deadline"
import { noteIngest } from "../../../lib/ingest-quiet"
import { parseWebhook, type WebhookIntake } from "../../../lib/webhook-intake"
import { storeWebhook } from "../../../workflows/intake/store-webhook"
import { odemeModule } from "../../../modules/odeme/resolve"
import { errorText } from "../../../lib/error-text"
import { fromServiceAddress } from "../../utils/client-ip"
import { BodyError, readRawBody } from "../../utils/raw-body"

/**
 * POST /odeme/webhook — the URL to enter in the merchant panel (spec §6.2).
 *
 * Takes whatever shape the service sends (only junk is refused: a body that
 * is not fields, or one without the four fields verify is sent), stores it
 * durably, answers 200, and leaves verification to the background (the
 * subscriber's bounded queue, with the poller draining due rows). It answers
 * 200 only for a notification it has stored, or counted as one for a
 * reference this store never made: if the database is unavailable it
 * answers 503 so the service delivers it again.
 */
export async function POST(req: MedusaRequest, res: MedusaResponse) {
  const intake = await acknowledge(req, res)
  if (!intake?.process) return
  try {
    await req.scope.resolve(Modules.EVENT_BUS).emit({ name: NOTIFICATION_EVENT, data: { id: intake.row.id, trusted: intake.trusted || undefined } })
  } catch (err) {
    // Stored and due: the poller processes it.
    logger(req).warn(`medusa-payment-odeme: could not queue notification ${intake.row.id}: ${errorText(err)}`)
  }
}

/** Stores the webhook and answers the service: the stored notification, or null when there is nothing to process. */
async function acknowledge(
  req: MedusaRequest,
  res: MedusaResponse
): Promise<(Extract<WebhookIntake, { kind: "stored" }> & { trusted: boolean }) | null> {
  const options = odemeModule(req.scope).odemeOptions
  let raw: Buffer
  try {
    raw = await readRawBody(req, MAX_BODY_BYTES)
  } catch (err) {
    const status = err instanceof BodyError ? err.status : 400
    answer(res, status, { type: status === 413 ? "payload_too_large" : "invalid_data", message: errorText(err) })
    return null
  }
  // Junk is answered before it counts as ingest: a stream of it must not hold back processing.
  const trusted = fromServiceAddress(req, options)
  const parsed = parseWebhook(undefined, raw, { trusted })
  if (parsed.kind === "invalid") {
    answer(res, 400, { type: "invalid_data", message: parsed.message })
    return null
  }
  // Processing in this process waits while webhooks are between arrival and answer.
  const acknowledged = noteIngest()
  try {
    let intake: WebhookIntake
    try {
      // Medusa's pool waits up to 60 s for a connection while the database is down; the
      // service gives up on a delivery long before. Answer 503 within a bound instead.
      // The one statement below is the route's only round trip to the database.
      intake = await withDeadline(storeWebhook(odemeModule(req.scope), parsed.input), STORE_DEADLINE_MS, "the database")
    } catch (err) {
      logger(req).error(`medusa-payment-odeme: could not store a webhook: ${errorText(err)}`)
      answer(res, 503, { type: "unavailable", message: "The notification could not be stored; please deliver it again." })
      return null
    }
    // A reference this store never made (the panel's test delivery, a second store on the same URL) is answered
    // as the spec asks, and counted for Settings → Odeme; the same answer as a stored one tells a caller nothing.
    if (intake.kind !== "stored") {
      answer(res, 200, { received: true, duplicate: false })
      return null
    }
    answer(res, 200, { received: true, duplicate: intake.duplicate })
    return { ...intake, trusted }
  } finally {
    acknowledged()
  }
}

/**
 * The answer as JSON. Not `res.json`: Express hashes every JSON answer for
 * an ETag, which a payment service never revalidates, and a burst of
 * webhooks paid that hash once each.
 */
function answer(res: MedusaResponse, status: number, body: Record<string, unknown>): void {
  res.status(status).type("json").end(JSON.stringify(body))
}

const logger = (req: MedusaRequest) => req.scope.resolve<Logger>(ContainerRegistrationKeys.LOGGER)

/**
 * How long the route waits for the database before answering 503. A write that
 * lands later is harmless: the row is due for the poller, and the service's
 * redelivery of the refused notification only counts as a duplicate.
 */
const STORE_DEADLINE_MS = 5_000

/** A notification is a few hundred bytes; this leaves room for fields the spec does not name. */
const MAX_BODY_BYTES = 64 * 1024
