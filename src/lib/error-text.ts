/**
 * The reason of whatever was thrown, for a log line, a notification's
 * `last_error` or an item. Medusa's workflows that keep their executions
 * (`store: true`, as `completeCartWorkflow`) throw their error as a plain
 * serialized object, not an `Error`: its `message` is still the reason, where
 * `String(err)` would say "[object Object]".
 */
export function errorText(err: unknown): string {
  if (err instanceof Error) return err.message
  const message = err && typeof err === "object" ? (err as { message?: unknown }).message : undefined
  return typeof message === "string" ? message : String(err)
}
