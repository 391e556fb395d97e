/**
 * `work`, or a rejection saying what did not answer in time once `ms` have
 * passed. The work itself goes on (a promise cannot be stopped); the caller
 * decides what a late result means. The one timer helper of the server code.
 */
export function withDeadline<T>(work: Promise<T>, ms: number, what = "the work"): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms)
  })
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer))
}
