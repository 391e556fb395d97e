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
