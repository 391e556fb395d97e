import { isOdemeApiError, type OdemeClient } from "../../client"
import { isRetryableStatus } from "../../client/retry"
import { keyModeOf, MODE_PROBE, type KeyMode } from "../../lib/key-mode-probe"

export type { KeyMode }

type Client = Pick<OdemeClient, "verifyNotification">

/** A question that could not be asked (timeout, network) is asked again after this, not by every caller at once. */
const ASK_AGAIN_MS = 30_000

interface Asked {
  question: Promise<KeyMode | null>
  /** The answer, once there is one. */
  answer?: KeyMode | null
  failedAt?: number
}

/** Per client: a process's key does not change (it is an option). */
const asked = new WeakMap<object, Asked>()

/**
 * The configured key's mode, asked of the service once per client (one
 * question shared by concurrent callers). null when the service answered
 * without naming a mode, or with an error of its own that asking again would
 * not change (a 4xx other than 429, an answer the client cannot read: the
 * spec shows neither for a made-up payment): only a key the service names
 * `sandbox` counts as one. Rejects when the service could not be asked
 * (timeout, network, 429, 5xx); asked again after ASK_AGAIN_MS.
 */
export function keyMode(client: Client): Promise<KeyMode | null> {
  const known = asked.get(client)
  if (known && (known.failedAt === undefined || Date.now() - known.failedAt < ASK_AGAIN_MS)) return known.question
  const entry: Asked = {
    question: client.verifyNotification({ ...MODE_PROBE }).then(
      (answer) => (entry.answer = keyModeOf(answer.mode)),
      (err: unknown) => {
        // An answer of the service's own that would be the same if asked again: the key's mode is not named.
        // A 429 or a 5xx is the service not answering now, as a timeout is.
        const answered = isOdemeApiError(err) && (err.kind === "invalid_response" || (err.kind === "http" && !isRetryableStatus(err.status ?? 0)))
        if (answered) return (entry.answer = null)
        entry.failedAt = Date.now()
        throw err
      }
    ),
  }
  // Nobody may be waiting (a session's start does not): the failure is kept for the next caller.
  entry.question.catch(() => undefined)
  asked.set(client, entry)
  return entry.question
}

/** The key's mode if the service has named it already (undefined: not yet), without asking. */
export function knownKeyMode(client: Client): KeyMode | null | undefined {
  return asked.get(client)?.answer
}

/** A store set to live whose key is a sandbox key: nothing it is told was paid moved money. */
export async function sandboxKeyInLiveStore(odeme: { odemeOptions: { mode: string }; client: Client }): Promise<boolean> {
  return odeme.odemeOptions.mode === "live" && (await keyMode(odeme.client)) === "sandbox"
}
