/**
 * JSON over HTTP for the demo, the e2e stack and the tests: one call that never
 * throws on a status (the caller asserts it), parses JSON when it is JSON and
 * keeps the raw text otherwise, and always has a deadline.
 */

/**
 * @param {string} url
 * @param {{ method?: string, headers?: Record<string,string>, body?: unknown, timeoutMs?: number, redirect?: "follow"|"manual" }} [opts]
 */
async function requestJson(url, { method = "GET", headers = {}, body, timeoutMs = 20_000, redirect = "follow" } = {}) {
  const res = await fetch(url, {
    method,
    redirect,
    headers: { ...(body !== undefined ? { "content-type": "application/json" } : {}), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(timeoutMs),
  })
  const text = await res.text()
  let json
  try {
    json = text ? JSON.parse(text) : undefined
  } catch {}
  return { status: res.status, ok: res.ok, text, json, headers: res.headers }
}

/** Like requestJson, but a status outside 2xx is an error that carries the response. */
async function requestJsonOk(url, opts = {}) {
  const res = await requestJson(url, opts)
  if (!res.ok) {
    const err = new Error(`${opts.method || "GET"} ${url} → HTTP ${res.status}: ${res.text.slice(0, 300)}`)
    err.response = { status: res.status, data: res.json ?? res.text }
    throw err
  }
  return res
}

module.exports = { requestJson, requestJsonOk }
