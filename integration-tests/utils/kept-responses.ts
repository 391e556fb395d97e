/**
 * Keeps every response (body and headers) the test client `api` gets whose URL
 * contains `urlPart`, answered or refused, to prove the API key never leaves the server.
 */
export function keepResponses(api: any, urlPart = ""): string[] {
  const bodies: string[] = []
  const keep = (res: any) => {
    if (String(res?.config?.url ?? "").includes(urlPart)) bodies.push(JSON.stringify(res?.data ?? "") + JSON.stringify(res?.headers ?? {}))
  }
  api.interceptors.response.use(
    (res: any) => {
      keep(res)
      return res
    },
    (err: any) => {
      keep(err.response)
      return Promise.reject(err)
    }
  )
  return bodies
}

/**
 * For a suite's afterAll: the kept responses hold no key, and (when every test
 * ran) there are at least `min` of them, so the check is never vacuous. A run
 * that picks tests by name (`-t`, which scripts/test.js reports as
 * ODEME_TEST_NAME_FILTER) makes fewer requests, so there only the key is checked.
 */
export function expectKeptWithoutKey(bodies: string[], apiKey: string, min: number): void {
  if (!process.env.ODEME_TEST_NAME_FILTER) expect(bodies.length).toBeGreaterThanOrEqual(min)
  expect(bodies.join("\n")).not.toContain(apiKey)
}
