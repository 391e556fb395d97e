/**
 * HTTP for the fuzz tests with every answer recorded (status, all headers,
 * body), so a later check can look for a secret in all of them.
 */

export interface Answer {
  method: string
  url: string
  status: number
  location: string | null
  headers: string
  body: string
}

export function answerRecorder(baseUrl: () => string, secrets: string[]) {
  const answers: Answer[] = []
  /** 5xx answers caused by Express failing to percent-decode a path parameter (Medusa-wide). */
  const frameworkDecodeErrors: string[] = []

  async function send(method: string, pathAndQuery: string, init: { headers?: Record<string, string>; body?: string } = {}): Promise<Answer> {
    const url = baseUrl() + pathAndQuery
    const res = await fetch(url, { method, headers: init.headers, body: init.body, redirect: "manual" })
    const answer: Answer = {
      method,
      url,
      status: res.status,
      location: res.headers.get("location"),
      headers: JSON.stringify([...res.headers.entries()]),
      body: await res.text(),
    }
    answers.push(answer)
    return answer
  }

  /** Records an answer obtained another way (the axios-like test client). */
  function record(url: string, res: { status: number; headers: unknown; data: unknown }) {
    answers.push({ method: "POST", url, status: res.status, location: null, headers: JSON.stringify(res.headers), body: JSON.stringify(res.data) })
  }

  const leakIn = (text: string): string | undefined => secrets.find((s) => text.includes(s))

  function expectNoSecretIn(recorded: Answer[], lines: string[]) {
    for (const a of recorded) {
      const leaked = leakIn(a.body) ?? leakIn(a.headers) ?? leakIn(a.location ?? "")
      if (leaked) throw new Error(`${a.method} ${a.url} → ${a.status} contains the API key`)
    }
    expect(lines.filter((l) => leakIn(l))).toEqual([])
  }

  return { answers, frameworkDecodeErrors, send, record, leakIn, expectNoSecretIn }
}

/** String(x) that never throws (fast-check makes objects without a prototype). */
export function str(v: unknown): string {
  if (typeof v === "string") return v
  try {
    return JSON.stringify(v) ?? String(v)
  } catch {
    return Object.prototype.toString.call(v)
  }
}

/** A path segment Express cannot percent-decode ("%zz", "%C0%AF"). */
export function malformedEncoding(segment: string): boolean {
  try {
    decodeURIComponent(segment)
    return false
  } catch {
    return true
  }
}
