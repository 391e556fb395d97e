import type { IncomingMessage } from "node:http"
import { createBrotliDecompress, createGunzip, createInflate } from "node:zlib"
import type { Readable } from "node:stream"

/** A body longer than the route takes (413), or one it cannot read (400). */
export class BodyError extends Error {
  constructor(
    readonly status: 400 | 413,
    message: string
  ) {
    super(message)
  }
}

/**
 * The request's body as bytes, whatever its content type, at most `limit`
 * bytes once decoded. The webhook route reads its own body: Medusa's parsers
 * each take only their own content type, and a service that labels JSON as
 * `text/plain`, or labels nothing, must still be heard.
 */
export async function readRawBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers["content-length"])
  if (Number.isFinite(declared) && declared > limit) {
    req.resume()
    throw new BodyError(413, "The notification is too large.")
  }
  const stream = decoded(req)
  const chunks: Buffer[] = []
  let size = 0
  try {
    for await (const chunk of stream) {
      size += (chunk as Buffer).length
      if (size > limit) {
        stream.destroy()
        req.resume()
        throw new BodyError(413, "The notification is too large.")
      }
      chunks.push(chunk as Buffer)
    }
  } catch (err) {
    if (err instanceof BodyError) throw err
    throw new BodyError(400, "The notification's body could not be read.")
  }
  return Buffer.concat(chunks)
}

function decoded(req: IncomingMessage): Readable {
  const encoding = String(req.headers["content-encoding"] ?? "identity")
    .trim()
    .toLowerCase()
  if (encoding === "gzip" || encoding === "x-gzip") return req.pipe(createGunzip())
  if (encoding === "deflate") return req.pipe(createInflate())
  if (encoding === "br") return req.pipe(createBrotliDecompress())
  return req
}
