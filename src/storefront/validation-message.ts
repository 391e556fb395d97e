/**
 * The plugin's one wording of a failed zod check: each issue as
 * `path: message` (the message alone for the value itself), joined with
 * "; ". It lives in the browser-safe entry's folder and imports nothing, so
 * the storefront's answer checks and the server (the webhook's 400, a
 * payment session's data) say it the same way. Medusa's route validators
 * keep Medusa's own wording; the options list theirs with a "did you mean"
 * (`src/lib/options.ts`); the emulator, an independent reading of the
 * service, speaks as the service does.
 */
export function zodMessage(error: { issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }> }): string {
  return error.issues.map((i) => (i.path.length ? `${i.path.map(String).join(".")}: ${i.message}` : i.message)).join("; ")
}
